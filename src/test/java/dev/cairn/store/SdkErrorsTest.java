package dev.cairn.store;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.write.WriteAction;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.TransactionConflictException;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;

import static org.assertj.core.api.Assertions.assertThat;

/** The one definition of a passing fault: which translated SDK failures a retry loop may try again. */
class SdkErrorsTest {

    @Test
    void unreachableThrottledAndCollidingCallsAreRetryable() {
        assertThat(CairnException.retryable(SdkErrors.translate(new CompletionException(
                SdkClientException.create("connection refused"))))).isTrue();
        assertThat(CairnException.retryable(SdkErrors.translate(
                ProvisionedThroughputExceededException.builder().message("slow down").build()))).isTrue();
        CairnException collided = SdkErrors.translate(TransactionConflictException.builder().message("x").build());
        assertThat(collided.error()).isInstanceOf(CairnError.Conflict.class);
        assertThat(CairnException.retryable(collided)).isTrue();
        CairnException cancelledByConflict = SdkErrors.translateDetailed(cancelled("None", "TransactionConflict"), List.of());
        assertThat(cancelledByConflict.error()).isInstanceOf(CairnError.TransactionCanceled.class);
        assertThat(CairnException.retryable(cancelledByConflict)).isTrue();
    }

    @Test
    void aCallThatRanOutOfTimeSaysSoAndARefusedConnectionSaysUnreachable() {
        CairnException timedOut = SdkErrors.translate(new CompletionException(ApiCallTimeoutException.create(3000)));
        assertThat(timedOut.error()).isInstanceOfSatisfying(CairnError.ServiceUnavailable.class,
                e -> assertThat(e.detail()).isEqualTo("DynamoDB did not answer in time; retry shortly"));
        assertThat(CairnException.retryable(timedOut)).isTrue();
        assertThat(SdkErrors.translate(SdkClientException.create("connection refused")).error().detail())
                .isEqualTo("DynamoDB is unreachable");
    }

    @Test
    void refusedCredentialsAreTheServicesFaultNotTheCallersNorPassing() {
        for (String code : List.of("AccessDeniedException", "UnrecognizedClientException", "ExpiredTokenException")) {
            CairnException refused = SdkErrors.translate(DynamoDbException.builder().statusCode(400)
                    .awsErrorDetails(AwsErrorDetails.builder().errorCode(code).errorMessage("User: arn:aws:iam::1:x").build())
                    .build());
            assertThat(refused.error()).isInstanceOfSatisfying(CairnError.InternalError.class, e -> assertThat(e.detail())
                    .isEqualTo("DynamoDB refused this service's credentials or permissions"));
            assertThat(CairnException.retryable(refused)).isFalse();
            assertThat(SdkErrors.answeredError(refused)).contains(code + " (HTTP 400)");
        }
        CairnException invalid = SdkErrors.translate(DynamoDbException.builder().statusCode(400)
                .awsErrorDetails(AwsErrorDetails.builder().errorCode("ValidationException").build()).build());
        assertThat(invalid.error()).isInstanceOf(CairnError.ValidationFailed.class);
        assertThat(SdkErrors.answeredError(SdkErrors.translate(SdkClientException.create("connection refused")))).isEmpty();
    }

    @Test
    void failedConditionsAndBadRequestsAreNotRetryable() {
        CairnException condition = SdkErrors.translate(ConditionalCheckFailedException.builder().message("x").build());
        assertThat(condition.error()).isInstanceOf(CairnError.Conflict.class);
        assertThat(CairnException.retryable(condition)).isFalse();
        assertThat(CairnException.retryable(SdkErrors.translateDetailed(
                cancelled("ConditionalCheckFailed", "None"), List.of()))).isFalse();
        assertThat(CairnException.retryable(new IllegalStateException("a bug"))).isFalse();
        assertThat(CairnException.is(condition, CairnError.NotFound.class, CairnError.Conflict.class)).isTrue();
        assertThat(CairnException.is(condition, CairnError.NotFound.class)).isFalse();
    }

    @Test
    void aCancelledWriteIsExplainedByItsOwnConditionBeforeItsSourceGuards() {
        var put = WriteAction.check("Match", PrimaryKey.of("MATCH#m", "MATCH"), WriteAction.Expectation.present(2L));
        var guard = WriteAction.copiedSource("Player", "p1", PrimaryKey.of("PLAYER#p1", "PLAYER"), 1, java.time.Instant.EPOCH);
        var onlyTheGuard = SdkErrors.translate(cancelled("None", "ConditionalCheckFailed"), List.of(put, guard));
        assertThat(onlyTheGuard.error()).isInstanceOf(CairnError.RefChanged.class);
        assertThat(CairnException.retryable(onlyTheGuard)).isTrue();
        var both = SdkErrors.translate(cancelled("ConditionalCheckFailed", "ConditionalCheckFailed"), List.of(put, guard));
        assertThat(both.error()).isInstanceOf(CairnError.NotFound.class);
        assertThat(CairnException.retryable(both)).isFalse();
    }

    @Test
    void aCancelledTransactionNamesItsActionsInTheApisWordsNeverTheirStorageKeys() {
        var put = WriteAction.check("Match#bgt-1", PrimaryKey.of("MATCH#bgt-1", "MATCH"), WriteAction.Expectation.present(2L));
        var other = WriteAction.check("team t1", PrimaryKey.of("TEAM#t1", "TEAM"), WriteAction.Expectation.present(1L));
        var cancelled = SdkErrors.translateDetailed(cancelled("ConditionalCheckFailed", "ValidationError"), List.of(put, other));
        var error = (CairnError.TransactionCanceled) cancelled.error();
        var described = error.extensions().toString();
        assertThat(described).contains("Match 'bgt-1'").contains("team t1").contains("ValidationError")
                .doesNotContain("MATCH#").doesNotContain("TEAM#");
        // the keys stay for the logs
        assertThat(error.failures().get(0).pk()).isEqualTo("MATCH#bgt-1");
    }

    @Test
    void aMissingTableAndARacingCreateAreToldApart() {
        CairnException missing = SdkErrors.translate(ResourceNotFoundException.builder().message("no table").build());
        assertThat(missing.error()).isInstanceOf(CairnError.ServiceUnavailable.class);
        assertThat(SdkErrors.tableMissing(missing)).isTrue();
        assertThat(SdkErrors.tableInUse(missing)).isFalse();
        CairnException inUse = SdkErrors.translate(ResourceInUseException.builder().message("exists").build());
        assertThat(SdkErrors.tableInUse(inUse)).isTrue();
        assertThat(SdkErrors.tableMissing(inUse)).isFalse();
    }

    @Test
    void aCallCutOffByTheShutdownIsUnavailableWithoutAWarningWhileAPipelineFailureKeepsItsTrace() {
        var logged = new ArrayList<LogRecord>();
        var handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                logged.add(record);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        var logger = java.util.logging.Logger.getLogger(SdkErrors.class.getName());
        logger.addHandler(handler);
        try {
            // What the SDK's Netty client answers once its event loops are shut down (a start that failed, a stop).
            CairnException cutOff = SdkErrors.translate(new CompletionException(SdkClientException.builder()
                    .message("Unable to execute HTTP request: event executor terminated")
                    .cause(new RejectedExecutionException("event executor terminated")).build()));
            assertThat(cutOff.error()).isInstanceOf(CairnError.ServiceUnavailable.class);
            assertThat(logged).noneMatch(r -> r.getLevel().intValue() >= Level.WARNING.intValue());
            SdkErrors.translate(SdkClientException.builder().message("Unable to load credentials")
                    .cause(new IllegalStateException("no profile")).build());
            assertThat(logged).singleElement().satisfies(r -> {
                assertThat(r.getLevel().intValue()).isGreaterThanOrEqualTo(Level.WARNING.intValue());
                assertThat(r.getThrown()).isNotNull();
            });
        } finally {
            logger.removeHandler(handler);
        }
    }

    private static TransactionCanceledException cancelled(String... codes) {
        return TransactionCanceledException.builder().message("cancelled")
                .cancellationReasons(Arrays.stream(codes)
                        .map(code -> CancellationReason.builder().code(code).build()).toList())
                .build();
    }
}
