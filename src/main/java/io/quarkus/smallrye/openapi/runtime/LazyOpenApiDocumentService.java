package io.quarkus.smallrye.openapi.runtime;

import io.quarkus.arc.profile.IfBuildProfile;
import io.quarkus.smallrye.openapi.OpenApiFilter;
import io.quarkus.smallrye.openapi.runtime.filter.AutoSecurityFilter;
import io.smallrye.openapi.runtime.io.Format;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads the stored OpenAPI document back on its first request instead of at every start. Quarkus 3.33 parses the
 * document the build finished (Cairn's filter runs at build time) into its model and writes it out as JSON and YAML
 * while the application starts — a fourth of a start on a cold JVM, and memory held until someone asks (Quarkus makes
 * the step lazy itself from quarkusio/quarkus#55538, not in 3.33). This alternative records that step and runs it,
 * once, when a document is first served (on a worker thread: Quarkus' route and Cairn's 3.0 rendition are blocking),
 * so the served bytes stay exactly those Quarkus produces. It lives in Quarkus' package because the step it defers is
 * package-private, which only a class of the same class loader can take over: the packaged application has one; dev
 * and test mode load the application apart from its libraries, so they keep Quarkus' own service. A Quarkus that
 * changes the step's signature fails this class' compilation ({@code @Override}), and {@code PackagedAppIT} checks
 * the packaged application serves the stored contract.
 */
@Alternative
@Priority(1)
@ApplicationScoped
@IfBuildProfile("prod")
public class LazyOpenApiDocumentService extends OpenApiDocumentService {

    private final List<Runnable> pending = new ArrayList<>();

    @Override
    void prepareDocument(AutoSecurityFilter autoSecurityFilter, Map<OpenApiFilter.RunStage, List<String>> filters,
                         String documentName) {
        synchronized (pending) {
            pending.add(() -> super.prepareDocument(autoSecurityFilter, filters, documentName));
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
