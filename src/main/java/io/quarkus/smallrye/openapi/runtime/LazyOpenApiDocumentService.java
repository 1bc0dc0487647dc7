package io.quarkus.smallrye.openapi.runtime;

import io.quarkus.arc.profile.IfBuildProfile;
import io.quarkus.smallrye.openapi.runtime.filter.AutoSecurityFilter;
import io.smallrye.openapi.runtime.io.Format;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads the stored OpenAPI document back on its first request instead of at every start. Quarkus 3.31 parses the
 * document the build finished (Cairn's filter runs at build time) into its model and writes it out as JSON and YAML
 * while the application starts — about a third of a second of a start, and memory held until someone asks. This
 * alternative records that step and runs it, once, when a document is first served (on a worker thread: the route is
 * blocking), so the served bytes stay exactly those Quarkus produces. It lives in Quarkus' package because the step
 * it defers is package-private, which only a class of the same class loader can take over: the packaged application
 * has one; dev and test mode load the application apart from its libraries, so they keep Quarkus' own service.
 * {@code PackagedAppIT} checks the packaged application serves the stored contract.
 */
@Alternative
@Priority(1)
@ApplicationScoped
@IfBuildProfile("prod")
public class LazyOpenApiDocumentService extends OpenApiDocumentService {

    private final List<Runnable> pending = new ArrayList<>();

    @Override
    void prepareDocument(AutoSecurityFilter autoSecurityFilter, List<String> userFilters, String documentName) {
        synchronized (pending) {
            pending.add(() -> super.prepareDocument(autoSecurityFilter, userFilters, documentName));
        }
    }

    @Override
    public byte[] getDocument(String documentName, Format format) {
        synchronized (pending) {
            pending.forEach(Runnable::run);
            pending.clear();
        }
        return super.getDocument(documentName, format);
    }
}
