package dev.cairn.platform;

import dev.cairn.core.CairnError;
import dev.cairn.core.query.AccessPattern;
import dev.cairn.core.query.Page;
import dev.cairn.store.CascadeStore;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Types Jackson reaches only through maps or generics (so Quarkus cannot see them in resource signatures):
 * registered for reflection so a native executable serializes them as the JVM does.
 */
@RegisterForReflection(targets = {CairnError.FieldError.class, Page.class, AccessPattern.class,
        CascadeStore.Report.class})
public final class NativeReflection {

    private NativeReflection() {
    }
}
