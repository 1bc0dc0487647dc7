package dev.cairn.store;

import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.retries.api.RetryStrategy;

import java.time.Duration;

/**
 * How the SDK retries one DynamoDB call, chosen to fit inside the call timeout ({@code quarkus.dynamodb.api-call-timeout},
 * 3 s): when every attempt is throttled the attempts run out first and the last throttling error surfaces — a 503
 * saying DynamoDB is throttling — instead of the timeout cutting a backoff short and reading as an outage. The SDK's
 * own default for DynamoDB (legacy mode, 9 attempts, throttling pauses from 500 ms doubling to 20 s) outlasts 3 s
 * after three throttled attempts.
 * <p>
 * Standard mode: full-jitter exponential pauses, and a client-wide token bucket that stops retrying while most
 * calls fail (a sustained outage fails fast rather than multiplying the load).
 */
public record RetryBudget(int maxAttempts, Duration backoff, Duration maxBackoff, Duration throttlingBackoff,
                          Duration maxThrottlingBackoff) {

    /**
     * 5 attempts; after a throttling error a pause of up to 100, 200, 400, 800 ms (1.5 s at most in all), after
     * any other retryable error (a 500, a dropped connection, an attempt timeout) up to 25, 50, 100, 200 ms.
     */
    public static RetryBudget standard() {
        return new RetryBudget(5, Duration.ofMillis(25), Duration.ofMillis(200), Duration.ofMillis(100),
                Duration.ofMillis(800));
    }

    public RetryStrategy strategy() {
        return AwsRetryStrategy.standardRetryStrategy().toBuilder()
                .maxAttempts(maxAttempts)
                .backoffStrategy(BackoffStrategy.exponentialDelay(backoff, maxBackoff))
                .throttlingBackoffStrategy(BackoffStrategy.exponentialDelay(throttlingBackoff, maxThrottlingBackoff))
                .build();
    }

    /** The client's configuration with this budget; timeouts, interceptors and the rest kept. */
    public ClientOverrideConfiguration applyTo(ClientOverrideConfiguration configuration) {
        return configuration.toBuilder().retryStrategy(strategy()).build();
    }

    /** The longest all pauses of one call add up to when every attempt is throttled. */
    public Duration longestThrottlingPauses() {
        Duration total = Duration.ZERO;
        for (int retry = 0; retry < maxAttempts - 1; retry++) {
            Duration ceiling = throttlingBackoff.multipliedBy(1L << retry);
            total = total.plus(ceiling.compareTo(maxThrottlingBackoff) > 0 ? maxThrottlingBackoff : ceiling);
        }
        return total;
    }
}
