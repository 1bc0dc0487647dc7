package dev.cairn.platform;

import dev.cairn.core.CairnError;
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

/** One log line per failed request; a passing outage met by many requests costs a line each, not a stack trace each. */
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
    void anUnavailableDynamoDbIsAWarningWithoutTheTraceAndAnUnforeseenFailureAnErrorWithIt() {
        var cause = new IllegalStateException("from the SDK");
        ProblemMapper.problem(new CairnError.ServiceUnavailable("DynamoDB is unreachable", 1), null, cause);
        ProblemMapper.problem(new CairnError.InternalError("the request failed unexpectedly"), null, cause);
        ProblemMapper.problem(new CairnError.Conflict("a concurrent transaction touched the same items; retry", true), null, null);

        assertThat(records).hasSize(3);
        assertThat(records.get(0).getLevel().intValue()).isEqualTo(Level.WARNING.intValue());
        assertThat(records.get(0).getThrown()).isNull();
        assertThat(records.get(1).getLevel().intValue()).isGreaterThan(Level.WARNING.intValue());
        assertThat(records.get(1).getThrown()).isSameAs(cause);
        assertThat(records.get(2).getLevel().intValue()).isLessThan(Level.WARNING.intValue());
    }
}
