package dev.cairn.platform;

import dev.cairn.core.TimeOrderedIds;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** One time-ordered id generator per process, so ids it hands out strictly increase. */
public class IdsProducer {

    @Produces
    @Singleton
    TimeOrderedIds timeOrderedIds() {
        return TimeOrderedIds.systemUtc();
    }
}
