package dev.cairn.platform;

import io.smallrye.mutiny.Uni;

/** A domain's demo items, written once into an empty table in dev mode (see {@link DevDemoSeeder}). */
public interface DemoData {

    Uni<Void> seed();
}
