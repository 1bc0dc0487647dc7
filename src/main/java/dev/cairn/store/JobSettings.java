package dev.cairn.store;

import java.time.Duration;

/**
 * How durable multi-step writes behave, produced by the platform from configuration.
 *
 * @param owner          this process's lease owner id (unique per process start, so a restarted pod is a new owner)
 * @param shards         write shards of the runnable-job index
 * @param retention      how long a done job stays readable before TTL removes it
 * @param jobLease       a job's lease; renewed at every checkpoint
 * @param aggregateLease the lease of a multi-transaction aggregate write (its writer's time to commit)
 */
public record JobSettings(String owner, int shards, Duration retention, Duration jobLease, Duration aggregateLease) {
}
