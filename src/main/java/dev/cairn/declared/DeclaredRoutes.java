package dev.cairn.declared;

import dev.cairn.core.model.AggregateModel;
import dev.cairn.core.model.CopiesModel;
import dev.cairn.core.model.DeclaredAggregate;
import dev.cairn.core.model.DeclaredEntity;
import dev.cairn.core.model.ModelReader;
import dev.cairn.core.model.DomainPlan;
import dev.cairn.core.model.EntityModel;
import dev.cairn.core.model.IndexModel;
import dev.cairn.core.model.ListModel;
import dev.cairn.core.model.NaturalIndexModel;
import dev.cairn.core.model.OperationModel;
import dev.cairn.core.model.ViewModel;
import dev.cairn.platform.auth.Caller;
import dev.cairn.platform.auth.Caller.Role;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Every declared operation as a route (method and path template), matched against a request's path. */
public final class DeclaredRoutes {

    /** What a route does. */
    public enum Action {
        CREATE, PUT_EDGE, GET, REPLACE, PATCH, DELETE, LIST_PARTITION, LIST_INDEX, LIST_NATURAL, VIEW,
        /** A soft-deleted entity's deleted listing, restore and purge. */
        LIST_DELETED, RESTORE, PURGE,
        /** An item's retained versions ({@code history}), and one of them: read by whoever may read the item. */
        VERSIONS, VERSION,
        /** Where whole copies of an entity live (its ref index). */
        REFERENCES,
        /** An aggregate's operations, lists of roots and lists of members found through a ref index. */
        AGGREGATE_CREATE, AGGREGATE_GET, AGGREGATE_REPLACE, AGGREGATE_PATCH, AGGREGATE_DELETE, AGGREGATE_LIST,
        AGGREGATE_APPEARANCES,
        /** An aggregate's retained versions ({@code history}), and one of them: read by whoever may read it. */
        AGGREGATE_VERSIONS, AGGREGATE_VERSION,
        /** A soft-deleted aggregate's listing, restore and purge ({@code softDelete}). */
        AGGREGATE_DELETED, AGGREGATE_RESTORE, AGGREGATE_PURGE
    }

    /**
     * One route: the entity (or the view) it serves; {@code list} for the listings ({@code natural}: the named index a
     * natural listing queries); {@code atOwner} when it is served
     * under the entity's owner (its first parameter is the owner's id); {@code parameters} are the template's
     * parameter names, in order (made once, not per request). An aggregate's route names its {@code aggregate} (and
     * no entity), and for a list or an appearance listing the {@code member} it is (its name in the declaration).
     */
    public record Route(String method, String template, Action action, DeclaredEntity entity, ListModel list,
                        ViewModel view, boolean atOwner, String[] segments, List<String> parameters,
                        NaturalIndexModel natural, IndexModel keyed, Access access, DeclaredAggregate aggregate,
                        String member) {

        /** A route of an entity or a view (no aggregate). */
        public Route(String method, String template, Action action, DeclaredEntity entity, ListModel list,
                     ViewModel view, boolean atOwner, String[] segments, List<String> parameters,
                     NaturalIndexModel natural, IndexModel keyed, Access access) {
            this(method, template, action, entity, list, view, atOwner, segments, parameters, natural, keyed, access,
                    null, null);
        }

        Route with(Access newAccess) {
            return new Route(method, template, action, entity, list, view, atOwner, segments, parameters, natural, keyed,
                    newAccess, aggregate, member);
        }
    }

    /**
     * Who may take a route: the role it needs, and where its path names the tenant its items belong to, which of its
     * parameters does ({@code tenantAt}, -1 for none) and the entity that tenant is (a 404 names it) — or, where no
     * entity owns the tenant's id (items grouped by {@code parent: { id }}), the word a 404 names it by
     * ({@code tenantWord}: "workspace").
     */
    public record Access(Role role, int tenantAt, DeclaredEntity tenant, int userAt, DeclaredEntity user,
                         String tenantWord) {

        Access(Role role, int tenantAt, DeclaredEntity tenant) {
            this(role, tenantAt, tenant, -1, null, null);
        }

        /** What a 404 for a tenant out of the caller's scope names: "workspace acme". */
        public String describeTenant(String value) {
            return tenantWord != null ? tenantWord + " " + value : tenant.describe(List.of(value));
        }
    }

    /** A matched route and the values of its parameters, in order. */
    public record Match(Route route, List<String> values) {
    }

    private final List<Route> routes;
    /**
     * The routes a path may fit, by its first segment: those whose first segment is that literal or a parameter, in
     * declaration order ({@link #open}: those of a parameter only, for any other first segment) — a request is
     * matched against its own resource's routes, not against every declared one.
     */
    private final Map<String, List<Route>> byFirst;
    private final List<Route> open;

    /** The segment under an item's path that lists its versions, and the parameter that names one. */
    public static final String VERSIONS_SEGMENT = "versions";
    public static final String VERSION_PARAMETER = "version";

    public DeclaredRoutes(DomainPlan plan) {
        var out = new ArrayList<Route>();
        for (DeclaredEntity entity : plan.entities()) {
            EntityModel model = entity.model();
            if (model.softDelete()) {
                // first: their literal segments ('deleted') win over the item path's id parameter
                out.add(route("GET", model.deletedPath(), Action.LIST_DELETED, entity, null, null, false));
                out.add(route("DELETE", model.purgePath(), Action.PURGE, entity, null, null, false));
                out.add(route("POST", model.restorePath(), Action.RESTORE, entity, null, null, false));
            }
        }
        for (DeclaredEntity entity : plan.entities()) {
            EntityModel model = entity.model();
            for (var operation : model.operations().values()) {
                String path = model.routeOf(operation);
                boolean atOwner = operation.atOwner();
                out.add(switch (operation.op()) {
                    case CREATE -> route("POST", path, Action.CREATE, entity, null, null, atOwner);
                    case GET -> route("GET", path, Action.GET, entity, null, null, atOwner);
                    case PUT -> route("PUT", path, model.edge() ? Action.PUT_EDGE : Action.REPLACE, entity, null, null, atOwner);
                    case PATCH -> route("PATCH", path, Action.PATCH, entity, null, null, atOwner);
                    case DELETE -> route("DELETE", path, Action.DELETE, entity, null, null, atOwner);
                });
            }
            if (model.list() != null) {
                out.add(route("GET", model.list().path(), Action.LIST_PARTITION, entity, model.list(), null, false));
            }
            for (IndexModel index : model.keyedIndexes()) {
                if (index.list() != null) {
                    Route listing = route("GET", index.list().path(), Action.LIST_INDEX, entity, index.list(), null, false);
                    out.add(new Route(listing.method(), listing.template(), listing.action(), entity, listing.list(), null,
                            false, listing.segments(), listing.parameters(), null, index, null));
                }
            }
            for (NaturalIndexModel index : model.indexes()) {
                if (index.list() != null) {
                    Route listing = route("GET", index.list().path(), Action.LIST_NATURAL, entity, index.list(), null, false);
                    out.add(new Route(listing.method(), listing.template(), listing.action(), entity, listing.list(), null,
                            false, listing.segments(), listing.parameters(), index, null, null));
                }
            }
        }
        for (DeclaredEntity entity : plan.entities()) {
            // after every other route of the entity: a listing's literal segment wins over an item's versions
            OperationModel get = entity.model().operation(dev.cairn.core.model.OperationModel.Op.GET);
            if (entity.model().history() != null && get != null) {
                String path = entity.model().routeOf(get);
                out.add(route("GET", path + "/" + VERSIONS_SEGMENT, Action.VERSIONS, entity, null, null, get.atOwner()));
                out.add(route("GET", path + "/" + VERSIONS_SEGMENT + "/{" + VERSION_PARAMETER + "}", Action.VERSION, entity,
                        null, null, get.atOwner()));
            }
        }
        for (var domain : plan.domains()) {
            for (ViewModel view : domain.views()) {
                out.add(route("GET", view.path(), Action.VIEW, plan.entity(view.root()), null, view, false));
            }
        }
        for (DeclaredEntity entity : plan.entities()) {
            CopiesModel copies = entity.model().copies();
            if (copies != null && copies.references() != null) {
                out.add(route("GET", copies.references().path(), Action.REFERENCES, entity, copies.references(), null, false));
            }
        }
        for (DeclaredAggregate aggregate : plan.aggregates()) {
            out.addAll(aggregateRoutes(aggregate));
        }
        this.routes = out.stream().map(route -> route.with(access(plan, route))).toList();
        this.open = routes.stream().filter(route -> route.segments()[0].startsWith("{")).toList();
        var first = new LinkedHashMap<String, List<Route>>();
        for (Route route : routes) {
            String segment = route.segments()[0];
            if (!segment.startsWith("{")) {
                first.computeIfAbsent(segment, key -> routes.stream().filter(r -> r.segments()[0].equals(key)
                        || r.segments()[0].startsWith("{")).toList());
            }
        }
        this.byFirst = Map.copyOf(first);
    }

    /** An aggregate's operations, its lists of roots and its appearance lists. */
    private static List<Route> aggregateRoutes(DeclaredAggregate aggregate) {
        var out = new ArrayList<Route>();
        AggregateModel model = aggregate.model();
        model.operations().keySet().forEach(op -> {
            Route r = switch (op) {
                case CREATE -> route("POST", model.routeOf(op), Action.AGGREGATE_CREATE, null, null, null, false);
                case GET -> route("GET", model.routeOf(op), Action.AGGREGATE_GET, null, null, null, false);
                case PUT -> route("PUT", model.routeOf(op), Action.AGGREGATE_REPLACE, null, null, null, false);
                case PATCH -> route("PATCH", model.routeOf(op), Action.AGGREGATE_PATCH, null, null, null, false);
                case DELETE -> route("DELETE", model.routeOf(op), Action.AGGREGATE_DELETE, null, null, null, false);
            };
            out.add(of(r, aggregate, null));
        });
        model.lists().forEach(list -> out.add(of(route("GET", list.route().path(), Action.AGGREGATE_LIST, null,
                list.route(), null, false), aggregate, list.name())));
        model.appearances().forEach(found -> out.add(of(route("GET", found.route().path(), Action.AGGREGATE_APPEARANCES,
                null, found.route(), null, false), aggregate, found.name())));
        if (model.softDelete()) {
            out.add(of(route("GET", model.deletedPath(), Action.AGGREGATE_DELETED, null, null, null, false), aggregate, null));
            out.add(of(route("POST", model.restorePath(), Action.AGGREGATE_RESTORE, null, null, null, false), aggregate, null));
            out.add(of(route("DELETE", model.purgePath(), Action.AGGREGATE_PURGE, null, null, null, false), aggregate, null));
        }
        if (model.servesVersions()) {
            out.add(of(route("GET", model.versionsPath(), Action.AGGREGATE_VERSIONS, null, null, null, false), aggregate, null));
            out.add(of(route("GET", model.versionsPath() + "/{" + VERSION_PARAMETER + "}", Action.AGGREGATE_VERSION, null,
                    null, null, false), aggregate, null));
        }
        return out;
    }

    private static Route of(Route route, DeclaredAggregate aggregate, String member) {
        return new Route(route.method(), route.template(), route.action(), null, route.list(), null, false,
                route.segments(), route.parameters(), null, null, null, aggregate, member);
    }

    /**
     * The role a route needs, as its entity declares it ({@code roles}) or by default — reads a reader, writes a
     * writer, and the delete of an entity others copy from (reference data) an admin — and the parameter that names
     * its tenant, if the entity declares one and the path names it.
     */
    static Access access(DomainPlan plan, Route route) {
        if (route.aggregate() != null) {
            return new Access(aggregateRole(route), -1, null);
        }
        if (route.action() == Action.REFERENCES) {
            // Where copies live names the aggregates that hold them: across tenants, if a tenant-scoped one does.
            String entity = route.entity().name();
            boolean acrossTenants = plan.aggregates().stream().anyMatch(a -> a.model().access().tenant() != null
                    && a.model().referencedEntities().contains(entity));
            return new Access(acrossTenants ? Role.ADMIN : Role.READER, -1, null);
        }
        EntityModel model = route.entity().model();
        String word = switch (route.action()) {
            case CREATE -> "create";
            case GET, VIEW, VERSIONS, VERSION -> "get";
            case PUT_EDGE, REPLACE -> "put";
            case PATCH -> "patch";
            case DELETE -> "delete";
            case LIST_PARTITION, LIST_INDEX, LIST_NATURAL -> "list";
            case LIST_DELETED -> "deleted";
            case RESTORE -> "restore";
            case PURGE -> "purge";
            default -> throw new IllegalStateException(route.action() + " is no entity's route");
        };
        Role declared = declaredRole(model.access(), word);
        Role role = declared != null ? declared : defaultRole(plan, model, word);
        String user = model.access().privateTo();
        if (route.action() == Action.VIEW && route.view().include().values().stream()
                .anyMatch(member -> plan.entity(member).model().access().privateTo() != null)) {
            // a view that shows users' private data across users (a book's loans): an admin's
            Access tenantAccess = tenantAccess(plan, route, role);
            return new Access(Role.ADMIN, tenantAccess.tenantAt(), tenantAccess.tenant());
        }
        if (user != null) {
            // a user's own data: under the path that names the user, that user (or an admin); across users, an admin
            int at = route.action() == Action.LIST_PARTITION ? 0
                    : route.action() == Action.LIST_INDEX ? (user.equals(route.keyed().partitionField()) ? 0 : -1)
                    : route.action() == Action.LIST_NATURAL ? route.parameters().indexOf(user)
                    : model.identity().indexOf(user) < route.parameters().size() ? model.identity().indexOf(user) : -1;
            DeclaredEntity owner = user.equals(model.idField()) ? route.entity() : plan.entity(model.parent().entity());
            Access tenantAccess = tenantAccess(plan, route, role);
            // a self entity's create names no user in its path: the self rule checks the body's id is the caller's
            boolean selfCreate = route.action() == Action.CREATE && model.self();
            return new Access(at < 0 && !selfCreate ? Role.ADMIN : tenantAccess.role(), tenantAccess.tenantAt(),
                    tenantAccess.tenant(), at, owner, tenantAccess.tenantWord());
        }
        return tenantAccess(plan, route, role);
    }

    /**
     * The role of an entity's route when its entity declares none: reads a reader, writes a writer, the delete of an
     * entity others copy from an admin; the deleted listing as the entity's lists, a restore as its delete, and a
     * purge (irreversible) an admin.
     */
    private static Role defaultRole(DomainPlan plan, EntityModel model, String word) {
        return switch (word) {
            case "get", "list" -> Role.READER;
            case "deleted" -> java.util.Objects.requireNonNullElse(declaredRole(model.access(), "list"), Role.READER);
            case "restore" -> java.util.Objects.requireNonNullElse(declaredRole(model.access(), "delete"),
                    defaultRole(plan, model, "delete"));
            case "purge" -> Role.ADMIN;
            case "delete" -> plan.cascade(model.name()) != null ? Role.ADMIN : Role.WRITER;
            default -> Role.WRITER;
        };
    }

    /**
     * An aggregate route's role, as the aggregate declares it ({@code roles}) or by default: reads and lists a reader,
     * writes a writer. Its tenant (a root field, not in the path) is checked on the items read; appearances of a
     * tenant-scoped aggregate list members of every tenant, so they are an admin's.
     */
    private static Role aggregateRole(Route route) {
        var access = route.aggregate().model().access();
        if (route.action() == Action.AGGREGATE_APPEARANCES && access.tenant() != null) {
            return Role.ADMIN;
        }
        String word = switch (route.action()) {
            case AGGREGATE_CREATE -> "create";
            case AGGREGATE_GET, AGGREGATE_VERSIONS, AGGREGATE_VERSION -> "get";
            case AGGREGATE_REPLACE -> "put";
            case AGGREGATE_PATCH -> "patch";
            case AGGREGATE_DELETE -> "delete";
            case AGGREGATE_LIST, AGGREGATE_APPEARANCES -> "list";
            case AGGREGATE_DELETED -> "deleted";
            case AGGREGATE_RESTORE -> "restore";
            case AGGREGATE_PURGE -> "purge";
            default -> throw new IllegalStateException(route.action() + " is no aggregate's route");
        };
        Role declared = declaredRole(access, word);
        if (declared != null) {
            return declared;
        }
        // as an entity's: the deleted listing as its lists, a restore as its delete, a purge (irreversible) an admin
        return switch (word) {
            case "deleted" -> java.util.Objects.requireNonNullElse(declaredRole(access, "list"), Role.READER);
            case "restore" -> java.util.Objects.requireNonNullElse(declaredRole(access, "delete"), Role.WRITER);
            case "purge" -> Role.ADMIN;
            default -> route.method().equals("GET") ? Role.READER : Role.WRITER;
        };
    }

    /** The role an entity or aggregate declares for an operation or its lists ({@code roles}); null when it declares none. */
    static Role declaredRole(EntityModel.Access access, String word) {
        String declared = access.roles().get(word);
        return declared == null ? null : Role.valueOf(declared.toUpperCase(java.util.Locale.ROOT));
    }

    /** Whether the request's caller may read what {@code access} guards: the role its reads need (a reader's by default). */
    static boolean mayRead(EntityModel.Access access) {
        Role declared = declaredRole(access, "get");
        Role needed = declared != null ? declared : Role.READER;
        return Caller.bound().map(caller -> caller.has(needed)).orElse(false);
    }

    private static Access tenantAccess(DomainPlan plan, Route route, Role role) {
        EntityModel model = route.entity().model();
        String tenant = model.access().tenant();
        if (tenant == null) {
            return new Access(role, -1, null);
        }
        // The tenant entity a 404 names: the entity itself, or the parent (or edge end) whose id the field holds.
        DeclaredEntity tenantEntity = tenant.equals(model.idField()) ? route.entity()
                : model.parent() != null && tenant.equals(model.parent().field()) ? plan.entity(model.parent().entity())
                : model.refs().stream().filter(r -> r.field().equals(tenant)).findFirst()
                .map(r -> plan.entity(r.entity())).orElse(route.entity());
        // no entity owns the id of a partition grouped by 'parent: { id }': a 404 names it by the field ("workspace")
        boolean unowned = model.parent() == null && !model.edge() && !tenant.equals(model.idField())
                && tenant.equals(model.identity().get(0));
        int at = switch (route.action()) {
            // a partition listing's parameters are the identity's first fields: the parent's (or an edge's from end's,
            // or the id that groups the partition)
            case LIST_PARTITION -> {
                int position = model.identity().indexOf(tenant);
                yield position >= 0 && position < route.parameters().size() ? position : -1;
            }
            case LIST_INDEX -> tenant.equals(route.keyed().partitionField()) ? 0 : -1;
            case LIST_NATURAL -> route.parameters().indexOf(tenant);
            case VIEW -> tenant.equals(model.idField()) ? 0 : -1;
            default -> {
                int position = model.identity().indexOf(tenant) + (route.atOwner() ? 1 : 0);
                yield position < route.parameters().size() ? position : -1;
            }
        };
        String word = !unowned ? null : ModelReader.words(tenant.endsWith("Id") && tenant.length() > 2
                ? tenant.substring(0, tenant.length() - 2) : tenant);
        return new Access(role, at, tenantEntity, -1, null, word);
    }

    private static Route route(String method, String template, Action action, DeclaredEntity entity, ListModel list,
                               ViewModel view, boolean atOwner) {
        String[] segments = template.substring(1).split("/");
        var parameters = new ArrayList<String>();
        for (String segment : segments) {
            if (segment.startsWith("{")) {
                parameters.add(segment.substring(1, segment.length() - 1));
            }
        }
        return new Route(method, template, action, entity, list, view, atOwner, segments, List.copyOf(parameters), null, null,
                null);
    }

    /**
     * A request path's segments as JAX-RS matches them: decoded one by one (a broken escape kept as it is), matrix
     * parameters dropped, one trailing slash ignored.
     */
    public static List<String> segments(String path) {
        String trimmed = path.startsWith("/") ? path.substring(1) : path;
        if (trimmed.endsWith("/")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        var out = new ArrayList<String>();
        for (String raw : trimmed.split("/", -1)) {
            int matrix = raw.indexOf(';');
            out.add(decoded(matrix < 0 ? raw : raw.substring(0, matrix)));
        }
        return out;
    }

    private static String decoded(String raw) {
        if (raw.indexOf('%') < 0 && raw.indexOf('+') < 0) {
            return raw; // nothing to decode (most ids): no decoder and no copy per segment
        }
        try {
            return java.net.URLDecoder.decode(raw.replace("+", "%2B"), java.nio.charset.StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return raw;
        }
    }

    public List<Route> all() {
        return routes;
    }

    /**
     * The route of this method and path; empty when none has the path, or {@code allowed} lists the methods that do.
     * Of the routes that fit, only those with the most literal segments count: {@code /books/deleted} is the deleted
     * books' listing, not the book {@code deleted}, as a literal path segment wins in JAX-RS.
     */
    public Optional<Match> match(String method, List<String> parts, Set<String> allowed) {
        // one pass over the routes (every declared request matches, some twice): a more literal fit starts over
        int best = -1;
        Route found = null;
        for (Route route : candidates(parts)) {
            int fit = fit(route, parts);
            if (fit < 0 || fit < best) {
                continue;
            }
            if (fit > best) {
                best = fit;
                found = null;
                allowed.clear();
            }
            if (found == null && route.method().equals(method)) {
                found = route;
            } else {
                allowed.add(route.method());
            }
        }
        return found == null ? Optional.empty() : Optional.of(new Match(found, values(found, parts)));
    }

    /**
     * The methods declared on the path (those of its best-fitting routes, as {@link #match}); empty when the path is
     * not declared at all. Every declared request asks this (authorization, before the route is matched), so nothing
     * is made for the routes that do not fit.
     */
    public Set<String> methodsOn(List<String> parts) {
        int best = -1;
        Set<String> allowed = null;
        for (Route route : candidates(parts)) {
            int fit = fit(route, parts);
            if (fit < 0 || fit < best) {
                continue;
            }
            if (fit > best || allowed == null) {
                best = fit;
                allowed = new LinkedHashSet<>();
            }
            allowed.add(route.method());
        }
        return allowed == null ? Set.of() : allowed;
    }

    private List<Route> candidates(List<String> parts) {
        return byFirst.getOrDefault(parts.get(0), open);
    }

    /** How many literal segments the route has when the path has its segments (as many, and its literal ones); -1 if not. */
    private static int fit(Route route, List<String> parts) {
        String[] segments = route.segments();
        if (parts.size() != segments.length) {
            return -1;
        }
        int literal = 0;
        for (int i = 0; i < segments.length; i++) {
            if (!segments[i].startsWith("{")) {
                if (!segments[i].equals(parts.get(i))) {
                    return -1;
                }
                literal++;
            }
        }
        return literal;
    }

    /** The values of the route's parameters in a path that {@linkplain #fit fits} it. */
    private static List<String> values(Route route, List<String> parts) {
        String[] segments = route.segments();
        var values = new ArrayList<String>(route.parameters().size());
        for (int i = 0; i < segments.length; i++) {
            if (segments[i].startsWith("{")) {
                values.add(parts.get(i));
            }
        }
        return values;
    }
}
