package dev.cairn.platform.console;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.TableSpec.Index;
import dev.cairn.core.TableSpec;
import dev.cairn.core.aggregate.Aggregate;
import dev.cairn.core.key.KeyTemplate;
import dev.cairn.core.query.AccessPattern;
import dev.cairn.core.query.Page;
import dev.cairn.core.query.QuerySpec;
import dev.cairn.platform.AccessPatterns;
import dev.cairn.platform.CairnConfig;
import dev.cairn.platform.Http;
import dev.cairn.platform.SnippetEndpoint;
import dev.cairn.platform.auth.AdminOnly;
import dev.cairn.platform.auth.Caller;
import dev.cairn.platform.auth.Public;
import dev.cairn.store.EntityStore;
import io.quarkus.arc.All;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;
import org.jboss.resteasy.reactive.RestResponse;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;

import java.io.IOException;
import java.io.InputStream;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The item-collection console: a page and a script served from the jar, and a read-only JSON API under
 * {@code /console/api}. Every API call is ONE Query with a limit or ONE DescribeTable, except the count of items by
 * type, which Scans a bounded number of items when asked; nothing here writes.
 */
@Path("/console")
public class ConsoleResource {

    private static final Map<String, String> ASSETS = Map.of(
            "console.js", "text/javascript; charset=utf-8", "builder.js", "text/javascript; charset=utf-8",
            "console.css", "text/css; charset=utf-8");

    private final EntityStore store;
    private final CairnConfig config;
    private final List<AccessPatterns> domains;
    private final ConsoleAccess access;
    private final SnippetEndpoint snippets;

    public ConsoleResource(EntityStore store, CairnConfig config, @All List<AccessPatterns> domains, ConsoleAccess access,
                           SnippetEndpoint snippets) {
        this.store = store;
        this.config = config;
        this.domains = domains;
        this.access = access;
        this.snippets = snippets;
    }

    @GET
    @Public
    @Produces(MediaType.TEXT_HTML)
    public RestResponse<byte[]> page() {
        return asset("index.html", "text/html; charset=utf-8");
    }

    @GET
    @Public
    @Path("/assets/{file}")
    public RestResponse<byte[]> assets(@RestPath String file) {
        String type = ASSETS.get(file);
        if (type == null) {
            throw notFound();
        }
        return asset(file, type);
    }

    /** Every access pattern with its key condition, placeholders, request JSON, snippets and its builder spec. */
    @GET
    @AdminOnly
    @Path("/api/access-patterns")
    @Produces(MediaType.APPLICATION_JSON)
    public List<ConsolePattern> accessPatterns() {
        requireEnabled();
        return domains.stream().flatMap(d -> d.accessPatterns(config.table().name()).stream())
                .sorted(Comparator.comparing(AccessPattern::route))
                .map(p -> ConsolePattern.of(p, snippets.endpoint())).toList();
    }

    /** The kinds of entity whose partition the console opens by id, with their key templates. */
    @GET
    @AdminOnly
    @Path("/api/partitions")
    @Produces(MediaType.APPLICATION_JSON)
    public Map<String, String> partitions() {
        requireEnabled();
        var out = new TreeMap<String, String>();
        domains.forEach(d -> d.partitions().forEach((kind, template) -> out.put(kind, template.pattern())));
        return out;
    }

    /**
     * One page of an item collection (every item sharing a partition key), in sort-key order: ONE strongly
     * consistent Query. {@code pk}, or {@code kind} + {@code id} (e.g. match + bgt-2025-test-1).
     */
    @GET
    @AdminOnly
    @Path("/api/collections")
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<Map<String, Object>> collection(@RestQuery String pk, @RestQuery String kind, @RestQuery String id,
                                               @RestQuery String limit, @RestQuery String cursor) {
        requireEnabled();
        String partition = partition(pk, kind, id);
        Aggregate aggregate = aggregateOf(partition);
        int pageSize = Http.limit(limit);
        if (!access.visible(Caller.current(), partition)) {
            // Another tenant's partition reads as an empty one, as if it did not exist: no call, nothing revealed.
            return Uni.createFrom().item(answer(partition, null, new Page<>(List.of(), null), aggregate));
        }
        QuerySpec query = QuerySpec.table(partition).limit(pageSize).consistent().build();
        return store.page(query, cursor).map(page -> answer(partition, null, page, aggregate));
    }

    /** One page of a GSI partition (e.g. a course roster on gsi1, a team's references on gsi2): ONE Query. */
    @GET
    @AdminOnly
    @Path("/api/indexes/{index}")
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<Map<String, Object>> index(@RestPath String index, @RestQuery String pk, @RestQuery String limit,
                                          @RestQuery String cursor) {
        requireEnabled();
        Index gsi = Index.globalIndexes().stream().filter(i -> i.indexName().equals(index)).findFirst()
                .orElseThrow(() -> Http.invalid("index", "must be gsi1, gsi2, gsi3 or gsi4"));
        String partition = Http.id("pk", pk);
        QuerySpec query = QuerySpec.on(gsi, partition).limit(Http.limit(limit)).build();
        Caller caller = Caller.current();
        if (!caller.allWorkspaces()) {
            // An index partition mixes tenants (a status shard holds every workspace's projects): even with their
            // items left out, the shape of its pages would tell a scoped admin how many there are, and when.
            throw new CairnException(new CairnError.Forbidden("the index view reads partitions every tenant shares: "
                    + "it needs a token scoped to every workspace", null));
        }
        return store.page(query, cursor).map(page -> answer(partition, gsi.indexName(), page, null));
    }

    /**
     * The table as DynamoDB describes it (ONE DescribeTable): its keys, each index's keys and projection, and the
     * item counts DynamoDB keeps (approximate, refreshed about every six hours). The counts span every tenant, so a
     * scoped admin gets the layout without them.
     */
    @GET
    @AdminOnly
    @Path("/api/table")
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<Map<String, Object>> table() {
        requireEnabled();
        boolean counts = Caller.current().allWorkspaces();
        return store.describeTable().map(table -> {
            var out = new LinkedHashMap<String, Object>();
            out.put("table", table.tableName());
            out.put("keys", keysOf(table.keySchema()));
            out.put("itemCount", counts ? table.itemCount() : null);
            out.put("sizeBytes", counts ? table.tableSizeBytes() : null);
            out.put("indexes", table.globalSecondaryIndexes().stream().map(gsi -> {
                var index = new LinkedHashMap<String, Object>();
                index.put("name", gsi.indexName());
                index.put("keys", keysOf(gsi.keySchema()));
                index.put("projection", gsi.projection().projectionTypeAsString());
                index.put("itemCount", counts ? gsi.itemCount() : null);
                return index;
            }).toList());
            return out;
        });
    }

    /**
     * Items by entity type among the first {@value #TYPE_COUNT_LIMIT} items (a Scan reading only {@code _type}): what a
     * development table holds, one click away. The one Scan of the console: asked for, never run on opening; it
     * reads every tenant's items, so it needs a token scoped to every workspace.
     */
    @GET
    @AdminOnly
    @Path("/api/type-counts")
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<EntityStore.TypeCounts> typeCounts() {
        requireEnabled();
        if (!Caller.current().allWorkspaces()) {
            throw new CairnException(new CairnError.Forbidden("counting items by type reads every tenant's items: "
                    + "it needs a token scoped to every workspace", null));
        }
        return store.countTypes(TYPE_COUNT_LIMIT);
    }

    static final int TYPE_COUNT_LIMIT = 10_000;

    /** {@code partition} and {@code sort} attribute names; a multi-attribute key's names joined, in key order. */
    private static Map<String, String> keysOf(List<KeySchemaElement> schema) {
        var keys = new LinkedHashMap<String, String>();
        schema.forEach(k -> keys.merge(k.keyTypeAsString().equals("HASH") ? "partition" : "sort", k.attributeName(),
                (before, next) -> before + ", " + next));
        return keys;
    }

    private String partition(String pk, String kind, String id) {
        if (pk != null) {
            if (kind != null || id != null) {
                throw Http.invalid("pk", "give either pk, or kind and id");
            }
            return Http.id("pk", pk);
        }
        if (kind == null) {
            throw Http.invalid("pk", "is required (or kind and id)");
        }
        KeyTemplate template = domains.stream().map(d -> d.partitions().get(kind)).filter(t -> t != null)
                .findFirst().orElseThrow(() -> Http.invalid("kind", "must be one of " + partitions().keySet()));
        return template.render(Http.id("id", id));
    }

    private Aggregate aggregateOf(String partition) {
        return domains.stream().flatMap(d -> d.aggregates().stream()).filter(a -> a.holdsPartition(partition))
                .findFirst().orElse(null);
    }

    private static Map<String, Object> answer(String partition, String index, Page<Map<String, AttributeValue>> page,
                                              Aggregate aggregate) {
        var out = new LinkedHashMap<String, Object>();
        out.put("pk", partition);
        if (index != null) {
            out.put("index", index);
        }
        if (aggregate != null) {
            out.put("aggregate", aggregate.name());
        }
        out.put("items", page.items().stream().map(item -> row(item, aggregate)).toList());
        out.put("next", page.next());
        return out;
    }

    /** One item: its keys, entity type, version and sub-aggregate group, then its other attributes. */
    static Map<String, Object> row(Map<String, AttributeValue> item, Aggregate aggregate) {
        var row = new LinkedHashMap<String, Object>();
        String sk = text(item.get(TableSpec.SK));
        row.put("pk", text(item.get(TableSpec.PK)));
        row.put("sk", sk);
        row.put("type", text(item.get(TableSpec.TYPE)));
        AttributeValue version = item.get(TableSpec.VERSION);
        row.put("version", version == null ? null : Long.parseLong(version.n()));
        if (aggregate != null && sk != null) {
            row.put("group", aggregate.groupOf(sk));
        }
        var attributes = new TreeMap<String, Object>();
        item.forEach((name, value) -> {
            if (!name.equals(TableSpec.PK) && !name.equals(TableSpec.SK) && !name.equals(TableSpec.TYPE)
                    && !name.equals(TableSpec.VERSION)) {
                attributes.put(name, typed(value));
            }
        });
        row.put("attributes", attributes);
        return row;
    }

    /** DynamoDB JSON, as the desktop table browsers show it: {"S": ...}, {"N": ...}, {"M": {...}}, {"L": [...]}. */
    static Object typed(AttributeValue value) {
        return switch (value.type()) {
            case S -> Map.of("S", value.s());
            case N -> Map.of("N", value.n());
            case BOOL -> Map.of("BOOL", value.bool());
            case NUL -> Map.of("NULL", true);
            case M -> {
                var members = new TreeMap<String, Object>();
                value.m().forEach((name, member) -> members.put(name, typed(member)));
                yield Map.of("M", members);
            }
            case L -> Map.of("L", value.l().stream().map(ConsoleResource::typed).toList());
            case SS -> Map.of("SS", value.ss());
            case NS -> Map.of("NS", value.ns());
            case B -> Map.of("B", value.b().asByteArray());
            case BS -> Map.of("BS", value.bs().stream().map(b -> b.asByteArray()).toList());
            default -> Map.of("S", value.toString());
        };
    }

    private static String text(AttributeValue value) {
        return value == null ? null : value.s();
    }

    private void requireEnabled() {
        access.requireEnabled();
    }

    private RestResponse<byte[]> asset(String file, String type) {
        requireEnabled();
        try (InputStream in = ConsoleResource.class.getResourceAsStream("/console/" + file)) {
            if (in == null) {
                throw notFound();
            }
            return RestResponse.ResponseBuilder.ok(in.readAllBytes()).header("Content-Type", type)
                    .header("Cache-Control", "no-cache").build();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static CairnException notFound() {
        return ConsoleAccess.notFound();
    }
}
