package dev.cairn.platform;

import dev.cairn.core.expr.builder.Snippets;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.util.Optional;

/**
 * Where generated snippets send their requests: the region and endpoint the service's own client uses when they are
 * configured (DynamoDB Local in dev mode: the snippets then run against the same table), else the SDK's defaults.
 */
@ApplicationScoped
public class SnippetEndpoint {

    private final Snippets.Endpoint endpoint;

    public SnippetEndpoint(@ConfigProperty(name = "quarkus.dynamodb.aws.region") Optional<String> region,
                           @ConfigProperty(name = "quarkus.dynamodb.endpoint-override") Optional<String> url) {
        this.endpoint = new Snippets.Endpoint(region.orElse(null), url.orElse(null));
    }

    public Snippets.Endpoint endpoint() {
        return endpoint;
    }
}
