package dev.cairn.platform;

import dev.cairn.store.DynamoGateway;
import dev.cairn.store.SdkErrors;
import io.smallrye.health.api.AsyncHealthCheck;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableResponse;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Ready when the table answers a DescribeTable within a short timeout. The answer is cached briefly so probes
 * do not hammer DynamoDB; it goes DOWN while DynamoDB is unreachable and UP again when it is back. The first UP
 * announces {@link ServiceReady}.
 */
@Readiness
@ApplicationScoped
public class DynamoDbReadiness implements AsyncHealthCheck {

    private record Cached(HealthCheckResponse response, long atNanos) {
    }

    private final DynamoGateway gateway;
    private final CairnConfig config;
    private volatile Cached cached;
    private volatile Uni<Void> atStart;
    private final AtomicBoolean announced = new AtomicBoolean();

    @Inject
    Event<ServiceReady> ready;

    public DynamoDbReadiness(DynamoGateway gateway, CairnConfig config) {
        this.gateway = gateway;
        this.config = config;
    }

    @Override
    public Uni<HealthCheckResponse> call() {
        Uni<Void> pending = atStart;
        if (pending != null) {
            // The start's table check is under way: its answer serves the probe (no second cold call beside it);
            // a check that outlasts the probe's timeout is a DOWN, as the probe's own call would be.
            long asked = System.nanoTime();
            return pending.map(done -> true)
                    .ifNoItem().after(config.health().timeout()).recoverWithItem(false)
                    .onFailure().recoverWithItem(true)
                    .chain(ended -> {
                        if (!ended) {
                            return Uni.createFrom().item(announce(down("DynamoDB did not answer DescribeTable")));
                        }
                        atStart = null;
                        Cached answered = cached; // set by the check when the table answered it
                        return answered != null && answered.atNanos() >= asked ? Uni.createFrom().item(announce(answered.response()))
                                : call();
                    });
        }
        Cached last = cached;
        if (last != null && System.nanoTime() - last.atNanos() < config.health().cacheFor().toNanos()) {
            return Uni.createFrom().item(announce(last.response()));
        }
        String table = config.table().name();
        Duration timeout = config.health().timeout();
        return gateway.describeTable(DescribeTableRequest.builder().tableName(table).build())
                .ifNoItem().after(timeout).fail()
                .map(this::answered)
                .onFailure().recoverWithItem(e -> down(whyDown(e)))
                .invoke(response -> cached = new Cached(response, System.nanoTime()))
                .map(this::announce);
    }

    /** The start's table check, begun: probes until it ends wait for it (within the probe's timeout). */
    void checkingAtStart(Uni<Void> check) {
        atStart = check;
    }

    /**
     * The table just answered a DescribeTable elsewhere (the start's table check): the first probe need not ask
     * again while that answer is fresh.
     */
    void answeredAtStart(DescribeTableResponse described) {
        cached = new Cached(answered(described), System.nanoTime());
    }

    /** What an operator needs to tell apart: no table, a refusal (credentials, permissions, a bad name), no answer. */
    static String whyDown(Throwable failure) {
        if (SdkErrors.tableMissing(failure)) {
            return "the table does not exist";
        }
        return SdkErrors.answeredError(failure).map(error -> "DynamoDB answered DescribeTable with " + error)
                .orElse("DynamoDB did not answer DescribeTable");
    }

    private HealthCheckResponse down(String error) {
        return HealthCheckResponse.named("dynamodb").down().withData("table", config.table().name())
                .withData("error", error).build();
    }

    private HealthCheckResponse answered(DescribeTableResponse described) {
        return HealthCheckResponse.named("dynamodb").up().withData("table", config.table().name())
                .withData("status", described.table().tableStatusAsString()).build();
    }

    /** The first UP a probe gets announces {@link ServiceReady}. */
    private HealthCheckResponse announce(HealthCheckResponse response) {
        if (response.getStatus() == HealthCheckResponse.Status.UP && ready != null && announced.compareAndSet(false, true)) {
            ready.fireAsync(new ServiceReady());
        }
        return response;
    }
}
