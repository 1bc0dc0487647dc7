package dev.cairn.declared;

import dev.cairn.core.model.DomainModel;
import dev.cairn.platform.DemoData;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The demo items declared beside each model ({@code demo:}), written in file order through the same create path as
 * a request (refs checked, copied fields filled from the referenced items); then each aggregate's demo inputs.
 */
@ApplicationScoped
public class DeclaredDemoData implements DemoData {

    private final DeclaredModels models;
    private final DeclaredService service;
    private final DeclaredAggregates aggregates;

    public DeclaredDemoData(DeclaredModels models, DeclaredService service, DeclaredAggregates aggregates) {
        this.models = models;
        this.service = service;
        this.aggregates = aggregates;
    }

    @Override
    public Uni<Void> seed() {
        Uni<?> chain = Uni.createFrom().voidItem();
        for (DomainModel domain : models.plan().domains()) {
            for (DomainModel.DemoItem item : domain.demo()) {
                chain = chain.chain(() -> service.insert(models.plan().entity(item.entity()), models.demoDoc(item)));
            }
            // Then the domain's aggregates, whose refs name the entities above: through the create path.
            for (var aggregate : domain.aggregates()) {
                for (DomainModel.DemoItem item : aggregate.demo()) {
                    chain = chain.chain(() -> aggregates.create(models.plan().aggregate(aggregate.name()), item.values()));
                }
            }
        }
        return chain.replaceWithVoid();
    }
}
