package dev.cairn.platform;

import dev.cairn.core.CairnException;
import dev.cairn.core.NaturalIndex;
import dev.cairn.core.TableSpec;
import dev.cairn.store.DynamoGateway;
import dev.cairn.store.SdkErrors;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.health.Readiness;
import org.jboss.logging.Logger;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableResponse;
import software.amazon.awssdk.services.dynamodb.model.IndexStatus;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;
import software.amazon.awssdk.services.dynamodb.model.UpdateTableRequest;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ExecutorService;

/**
 * At startup: creates the table when {@code cairn.table.create} is on and it is missing (idempotent), and in
 * any case touches the DynamoDB client once, so the first real request does not pay for building it. The check runs
 * on a worker thread beside the rest of the start (a cold client's first call costs ~0.3 s); readiness reports DOWN
 * until the table answers either way.
 */
@ApplicationScoped
public class TableProvisioner {

    /**
     * The start's observers that need the table run after this priority (the dev seeder, the job worker, the periodic
     * reconcile): a table the start creates exists by then; one it only checks is not waited for.
     */
    public static final int TABLE_READY = 5000;

    private static final Logger LOG = Logger.getLogger(TableProvisioner.class);

    private final DynamoGateway gateway;
    private final CairnConfig config;
    private final DynamoDbReadiness readiness;
    private final ExecutorService workers;
    private final Catalog catalog;
    private Uni<Void> tableChecked = Uni.createFrom().voidItem();

    public TableProvisioner(DynamoGateway gateway, CairnConfig config, @Readiness DynamoDbReadiness readiness,
                            ExecutorService workers, Catalog catalog) {
        this.gateway = gateway;
        this.config = config;
        this.readiness = readiness;
        this.workers = workers;
        this.catalog = catalog;
    }

    void beginCheck(@Observes @Priority(10) StartupEvent event) {
        String table = config.table().name();
        Uni<Void> check = config.table().create()
                // A cold JVM on a busy machine can miss the 3 s call timeout once: retried within the start budget.
                ? ensureTable(table).onFailure(CairnException::retryable).retry()
                        .withBackOff(Duration.ofMillis(200), Duration.ofSeconds(2)).expireIn(Duration.ofSeconds(50).toMillis())
                : describe(table).invoke(readiness::answeredAtStart).invoke(described -> warnMissingIndexes(table, described))
                        .replaceWithVoid()
                        .onFailure().invoke(e -> LOG.warnf("DynamoDB table %s at startup: %s (cairn.table.create=false)",
                                table, DynamoDbReadiness.whyDown(e)))
                        .onFailure().recoverWithNull();
        tableChecked = check.runSubscriptionOn(workers).memoize().indefinitely();
        readiness.checkingAtStart(tableChecked);
        tableChecked.subscribe().with(done -> { }, failure -> { }); // begun; a failure is met where it is awaited
    }

    void awaitCreatedTable(@Observes @Priority(TABLE_READY) StartupEvent event) {
        if (config.table().create()) {
            tableChecked.await().atMost(Duration.ofSeconds(60));
        }
    }

    /** Creates the table unless it exists, then waits until it is ACTIVE. */
    public Uni<Void> ensureTable(String table) {
        return describe(table)
                .onFailure(SdkErrors::tableMissing).recoverWithUni(() -> gateway
                        .createTable(TableSpec.createTableRequest(table, catalog.naturalIndexes()))
                        .invoke(() -> LOG.infof("created DynamoDB table %s", table))
                        .replaceWith((DescribeTableResponse) null)
                        // An attempt that timed out may have created it after all: the SDK's retry then finds it.
                        .onFailure(SdkErrors::tableInUse).recoverWithNull())
                .chain(described -> described != null && described.table().tableStatus() == TableStatus.ACTIVE
                        ? addMissingIndexes(table, described).invoke(() -> readiness.answeredAtStart(described))
                        : waitActive(table)
                        .chain(() -> gateway.updateTimeToLive(TableSpec.timeToLiveRequest(table)))
                        .invoke(() -> LOG.infof("finished jobs of %s expire by TTL on %s", table, TableSpec.EXPIRES_AT))
                        .chain(() -> describe(table))
                        .chain(active -> addMissingIndexes(table, active)));
    }

    /**
     * A table made by an older release, or before a model declared an index, gets the indexes it lacks, one UpdateTable
     * each (DynamoDB allows one index creation at a time), each waited for until ACTIVE. DynamoDB fills each from the
     * items already stored: a natural index at once (its keys are the items' own attributes), an overloaded one with
     * the items that carry its key attributes (older items need a backfill).
     */
    private Uni<Void> addMissingIndexes(String table, DescribeTableResponse described) {
        return Uni.createFrom().item(described).chain(() -> {
            var present = present(described);
            Uni<Void> chain = Uni.createFrom().voidItem();
            for (TableSpec.Index index : TableSpec.Index.globalIndexes()) {
                if (!present.contains(index.indexName())) {
                    chain = chain.chain(() -> addIndex(table, index.indexName(), TableSpec.addIndexRequest(table, index)));
                }
            }
            for (NaturalIndex index : catalog.naturalIndexes()) {
                if (!present.contains(index.name())) {
                    chain = chain.chain(() -> addIndex(table, index.name(), TableSpec.addIndexRequest(table, index)));
                }
            }
            return chain;
        });
    }

    private Uni<Void> addIndex(String table, String name, UpdateTableRequest request) {
        return gateway.updateTable(request).invoke(() -> LOG.infof("adding index %s to DynamoDB table %s", name, table))
                .chain(() -> waitActive(table));
    }

    private static Set<String> present(DescribeTableResponse described) {
        var present = new HashSet<String>();
        if (described.table().hasGlobalSecondaryIndexes()) {
            described.table().globalSecondaryIndexes().forEach(gsi -> present.add(gsi.indexName()));
        }
        return present;
    }

    /** A table this start does not manage: a declared index it lacks is the operator's to add, and said once. */
    private void warnMissingIndexes(String table, DescribeTableResponse described) {
        var present = present(described);
        catalog.naturalIndexes().stream().filter(index -> !present.contains(index.name())).forEach(index -> LOG.warnf(
                "DynamoDB table %s has no index %s, which a model declares: its listing fails until it is added "
                        + "(docs/operations.md, adding an index)", table, index.name()));
    }

    /** Waits until the table and every index on it are ACTIVE. */
    private Uni<Void> waitActive(String table) {
        return gateway.describeTable(DescribeTableRequest.builder().tableName(table).build())
                .onItem().transformToUni(r -> {
                    boolean indexesActive = !r.table().hasGlobalSecondaryIndexes() || r.table().globalSecondaryIndexes()
                            .stream().allMatch(gsi -> gsi.indexStatus() == IndexStatus.ACTIVE);
                    return r.table().tableStatus() == TableStatus.ACTIVE && indexesActive ? Uni.createFrom().voidItem()
                            : Uni.createFrom().<Void>failure(new IllegalStateException("table " + table + " is not active yet"));
                })
                .onFailure(IllegalStateException.class).retry().withBackOff(Duration.ofMillis(100), Duration.ofSeconds(2))
                .atMost(60);
    }

    private Uni<DescribeTableResponse> describe(String table) {
        return gateway.describeTable(DescribeTableRequest.builder().tableName(table).build());
    }
}
