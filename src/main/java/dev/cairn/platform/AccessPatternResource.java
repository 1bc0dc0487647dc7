package dev.cairn.platform;

import dev.cairn.core.query.AccessPattern;
import io.quarkus.arc.All;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.util.Comparator;
import java.util.List;

/** Every access pattern of every domain, with its exact DynamoDB request: no DynamoDB call at all. */
@Tag(name = "Access patterns", description = "Every access pattern with its exact DynamoDB request")
@Path("/access-patterns")
@Produces(MediaType.APPLICATION_JSON)
public class AccessPatternResource {

    private final List<AccessPatterns> domains;
    private final CairnConfig config;
    private final SnippetEndpoint snippets;

    public AccessPatternResource(@All List<AccessPatterns> domains, CairnConfig config, SnippetEndpoint snippets) {
        this.domains = domains;
        this.config = config;
        this.snippets = snippets;
    }

    @GET
    @Operation(operationId = "listAccessPatterns", summary = "Every access pattern with its exact DynamoDB request",
            description = "Each pattern's request as DynamoDB JSON, and as ready-to-run snippets: an AWS CLI v2 command, "
                    + "a Java program (AWS SDK v2, async client) and a JavaScript module (AWS SDK v3), addressed to the "
                    + "region and endpoint the service itself uses when they are configured.")
    public List<AccessPattern> all() {
        return domains.stream().flatMap(d -> d.accessPatterns(config.table().name()).stream())
                .sorted(Comparator.comparing(AccessPattern::route)).map(p -> p.withSnippets(snippets.endpoint())).toList();
    }
}
