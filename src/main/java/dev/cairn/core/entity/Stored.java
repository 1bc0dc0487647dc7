package dev.cairn.core.entity;

import dev.cairn.core.key.PrimaryKey;

import java.time.Instant;

/** A decoded item: the domain value plus the bookkeeping Cairn keeps beside it. */
public record Stored<T>(T value, PrimaryKey key, long version, Instant createdAt, Instant updatedAt) {
}
