package dev.cairn.platform;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.config.MeterFilter;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import java.util.List;
import java.util.Set;

/**
 * Keeps the {@code uri} tag of the HTTP server metrics to the routes' templates. With
 * {@code quarkus.micrometer.binder.http-server.suppress4xx-errors} Quarkus tags an unmatched answer of 400 or more
 * UNKNOWN and an unmatched 404 NOT_FOUND; this filter folds the remaining raw values into the same UNKNOWN: the two
 * names for "no route", and a request the client reset before it was answered (Quarkus records it with its raw path
 * and no status). So junk paths cannot grow the number of series, nor use up Micrometer's cap on uri values.
 */
public class HttpMetricTags {

    static final String UNMATCHED = "UNKNOWN";
    private static final Set<String> NO_ROUTE = Set.of("NOT_FOUND", "REDIRECTION");

    @Produces
    @Singleton
    MeterFilter unmatchedPathsShareOneValue() {
        return new MeterFilter() {
            @Override
            public Meter.Id map(Meter.Id id) {
                if (!id.getName().startsWith("http.server.")) {
                    return id;
                }
                String uri = id.getTag("uri");
                String status = id.getTag("status");
                boolean reset = status != null && !status.chars().allMatch(Character::isDigit);
                if (uri == null || !(NO_ROUTE.contains(uri) || reset) || uri.equals(UNMATCHED)) {
                    return id;
                }
                var tags = new java.util.ArrayList<Tag>();
                id.getTagsAsIterable().forEach(tag -> tags.add(tag.getKey().equals("uri") ? Tag.of("uri", UNMATCHED) : tag));
                return id.replaceTags(List.copyOf(tags));
            }
        };
    }
}
