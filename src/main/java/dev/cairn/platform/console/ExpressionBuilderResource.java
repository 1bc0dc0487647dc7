package dev.cairn.platform.console;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.TableSpec;
import dev.cairn.core.expr.builder.AttributeType;
import dev.cairn.core.expr.builder.BuilderSpec;
import dev.cairn.core.expr.builder.BuiltRequest;
import dev.cairn.core.expr.builder.DynamoJson;
import dev.cairn.core.expr.builder.ExpressionBuilder;
import dev.cairn.core.expr.builder.Operation;
import dev.cairn.core.expr.builder.Snippets;
import dev.cairn.core.expr.builder.TableShape;
import dev.cairn.platform.AccessPatterns;
import dev.cairn.platform.CairnConfig;
import dev.cairn.platform.Catalog;
import dev.cairn.platform.SnippetEndpoint;
import dev.cairn.platform.auth.AdminOnly;
import dev.cairn.platform.limits.Reads;
import dev.cairn.platform.auth.Caller;
import dev.cairn.store.EntityStore;
import io.quarkus.arc.All;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestQuery;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The console's expression builder (private to the console, like the rest of {@code /console/api}): the table's shape
 * (keys, indexes, the models' attribute types), the rendering of a composed request — expressions, placeholder maps,
 * DynamoDB JSON, snippets — or the fields it is wrong at (400, no DynamoDB call), and one page of a composed read:
 * ONE Query, Scan or GetItem of at most {@value ExpressionBuilder#MAX_LIMIT} items. Writes are shown, never run.
 * A scoped admin reads its own tenants' partitions only: another tenant's partition reads as empty, and an index or
 * a Scan, which mix every tenant's items, are refused (403).
 */
@Path("/console/api/builder")
public class ExpressionBuilderResource {

    private final EntityStore store;
    private final ConsoleAccess access;
    private final SnippetEndpoint endpoint;
    private final TableShape shape;

    public ExpressionBuilderResource(EntityStore store, CairnConfig config, @All List<AccessPatterns> domains,
                                     ConsoleAccess access, SnippetEndpoint endpoint, Catalog catalog) {
        this.store = store;
        this.access = access;
        this.endpoint = endpoint;
        // the table as it is provisioned: its declared indexes on natural attributes too
        this.shape = TableShape.of(TableSpec.createTableRequest(config.table().name(), catalog.naturalIndexes()),
                declared(domains));
    }

    /** The table and its indexes with their keys, and each attribute the models declare with its type. */
    @GET
    @AdminOnly
    @Path("/shape")
    @Produces(MediaType.APPLICATION_JSON)
    public Map<String, Object> shape() {
        access.requireEnabled();
        var out = new LinkedHashMap<String, Object>();
        out.put("table", shape.table());
        out.put("targets", shape.targets().values().stream().map(t -> Map.of("name", t.name(), "partition", t.partition(),
                "sort", t.sort())).toList());
        out.put("keyTypes", new TreeMap<>(shape.keyTypes()));
        var attributes = new TreeMap<String, Object>();
        shape.attributes().forEach((name, declared) -> attributes.put(name, Map.of("type", declared.type(),
                "entities", declared.entities())));
        out.put("attributes", attributes);
        out.put("maxLimit", ExpressionBuilder.MAX_LIMIT);
        return out;
    }

    /** The request the spec composes, with its snippets; a 400 naming each wrong field otherwise. No DynamoDB call. */
    @POST
    @AdminOnly
    @Reads
    @Path("/render")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Map<String, Object> render(BuilderSpec spec) {
        access.requireEnabled();
        BuiltRequest built = build(spec);
        var out = new LinkedHashMap<String, Object>();
        out.put("operation", built.operation().wire());
        out.put("runnable", built.operation().isRead());
        out.put("target", built.indexName() == null ? TableShape.TABLE : built.indexName());
        var expressions = new LinkedHashMap<String, Object>();
        expression(expressions, "keyCondition", built.keyCondition(), built);
        expression(expressions, "filter", built.filter(), built);
        expression(expressions, "condition", built.condition(), built);
        expression(expressions, "update", built.update(), built);
        expression(expressions, "projection", built.projection(), built);
        out.put("expressions", expressions);
        out.put("names", built.names());
        out.put("values", DynamoJson.ofValues(built.values()));
        out.put("valueFields", built.valueFields());
        out.put("request", built.request());
        out.put("snippets", Snippets.of(built.operation(), built.request(), endpoint.endpoint()));
        out.put("reserved", built.reserved());
        out.put("warnings", built.warnings());
        return out;
    }

    /**
     * One page of the composed read: ONE call, its items as DynamoDB JSON, the capacity it consumed, and a cursor to
     * the next page (bound to this read).
     */
    @POST
    @AdminOnly
    @Reads
    @Path("/run")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<Map<String, Object>> run(BuilderSpec spec, @RestQuery String cursor) {
        access.requireEnabled();
        BuiltRequest read = build(spec);
        if (!read.operation().isRead()) {
            throw new CairnException(CairnError.ValidationFailed.of("operation",
                    "the console shows writes and never runs them: copy a snippet to run it"));
        }
        if (cursor != null && read.operation() == Operation.GET_ITEM) {
            throw new CairnException(CairnError.ValidationFailed.of("cursor", "a GetItem has a single page"));
        }
        Caller caller = Caller.current();
        if (read.operation() == Operation.SCAN) {
            caller.requireAllWorkspaces("a Scan reads every partition");
        } else if (read.indexName() != null) {
            // An index partition mixes tenants (a status shard holds every workspace's projects), as in the index view.
            caller.requireAllWorkspaces("the index " + read.indexName() + " holds partitions every tenant shares: it");
        }
        AttributeValue partition = read.partition().get(TableSpec.PK);
        if (read.indexName() == null && partition != null && !access.visible(caller, partition.s())) {
            // Another tenant's partition reads as an empty one, as in the collection view: no call, nothing revealed.
            return Uni.createFrom().item(answer(read, new EntityStore.ReadPage(List.of(), null, 0, null)));
        }
        return store.read(read, cursor).map(page -> answer(read, page));
    }

    private BuiltRequest build(BuilderSpec spec) {
        if (spec == null) {
            throw new CairnException(CairnError.ValidationFailed.of("operation", "a builder spec is required (JSON)"));
        }
        return ExpressionBuilder.build(spec, shape);
    }

    private static void expression(Map<String, Object> out, String name, String text, BuiltRequest built) {
        if (text != null) {
            out.put(name, Map.of("text", text, "readable", built.readable(text)));
        }
    }

    private static Map<String, Object> answer(BuiltRequest read, EntityStore.ReadPage page) {
        var out = new LinkedHashMap<String, Object>();
        out.put("operation", read.operation().wire());
        out.put("items", page.items().stream().map(DynamoJson::ofItem).toList());
        out.put("count", page.items().size());
        out.put("scanned", page.scanned());
        out.put("consumedCapacity", page.capacity());
        out.put("next", page.next());
        return out;
    }

    /**
     * What the models declare, attribute by attribute: an attribute two entities give different types has no default
     * type. Cairn's own attributes ({@code _type}, {@code _version}, …) are typed too.
     */
    private static Map<String, TableShape.Declared> declared(List<AccessPatterns> domains) {
        var types = new TreeMap<String, AttributeType>();
        var entities = new TreeMap<String, List<String>>();
        Set<String> conflicting = new HashSet<>();
        domains.forEach(d -> d.attributeTypes().forEach((entity, fields) -> fields.forEach((name, type) -> {
            AttributeType known = types.putIfAbsent(name, type);
            if (known != null && known != type) {
                conflicting.add(name);
            }
            entities.computeIfAbsent(name, n -> new ArrayList<>()).add(entity + "." + name);
        })));
        var out = new LinkedHashMap<String, TableShape.Declared>();
        types.forEach((name, type) -> {
            if (!conflicting.contains(name)) {
                out.put(name, new TableShape.Declared(type, entities.get(name)));
            }
        });
        out.put(TableSpec.TYPE, new TableShape.Declared(AttributeType.S, List.of("every item (its entity type)")));
        out.put(TableSpec.VERSION, new TableShape.Declared(AttributeType.N, List.of("every item (its version)")));
        out.put(TableSpec.CREATED_AT, new TableShape.Declared(AttributeType.S, List.of("every item (an instant)")));
        out.put(TableSpec.UPDATED_AT, new TableShape.Declared(AttributeType.S, List.of("every item (an instant)")));
        return out;
    }
}
