package dev.cairn.platform;

import dev.cairn.core.CairnError;
import dev.cairn.store.SdkErrors;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.assertj.core.api.Assertions.assertThat;

/** One log line per failed request; an outage met by many requests costs a line each, not a stack trace each. */
class ProblemLogTest {

    private final List<LogRecord> records = new ArrayList<>();
    private final Handler handler = new Handler() {
        @Override public void publish(LogRecord record) { records.add(record); }
        @Override public void flush() { }
        @Override public void close() { }
    };
    private final Logger logger = Logger.getLogger(ProblemMapper.class.getName());

    @BeforeEach
    void listen() {
        logger.addHandler(handler);
    }

    @AfterEach
    void stop() {
        logger.removeHandler(handler);
    }

    @Test
    void passingOutagesAreWarningsWithoutTheTraceAndOnlyAnUnforeseenFailureCarriesIt() {
        var unforeseen = new IllegalStateException("a bug");
        var refused = SdkErrors.translate(DynamoDbException.builder().statusCode(400)
                .awsErrorDetails(AwsErrorDetails.builder().errorCode("AccessDeniedException").build()).build());
        ProblemMapper.problem(new CairnError.ServiceUnavailable("DynamoDB is unreachable", 1), null, unforeseen);
        ProblemMapper.problem(new CairnError.AggregateBusy("the aggregate changed during every one of 20 reads", 1), null, null);
        ProblemMapper.problem(refused.error(), null, refused);
        ProblemMapper.problem(new CairnError.InternalError("the request failed unexpectedly"), null, unforeseen);
        ProblemMapper.problem(new CairnError.Conflict("a concurrent transaction touched the same items; retry", true), null, null);

        assertThat(records).hasSize(5);
        assertThat(records.get(0).getLevel().intValue()).isEqualTo(Level.WARNING.intValue());
        assertThat(records.get(0).getThrown()).isNull();
        assertThat(((org.jboss.logmanager.ExtLogRecord) records.get(0)).getFormattedMessage()).contains("DynamoDB is unreachable");
        assertThat(records.get(1).getLevel().intValue()).isEqualTo(Level.WARNING.intValue());
        assertThat(records.get(1).getThrown()).isNull();
        assertThat(records.get(2).getLevel().intValue()).as("the service's fault").isGreaterThan(Level.WARNING.intValue());
        assertThat(records.get(2).getThrown()).as("DynamoDB's answer is logged where it is translated").isNull();
        assertThat(records.get(3).getLevel().intValue()).isGreaterThan(Level.WARNING.intValue());
        assertThat(records.get(3).getThrown()).isSameAs(unforeseen);
        assertThat(records.get(4).getLevel().intValue()).isLessThan(Level.WARNING.intValue());
    }
}
