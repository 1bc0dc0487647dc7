package dev.cairn.platform;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.config.MeterFilter;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import java.util.List;
import java.util.Set;

/**
 * Keeps the tags of the HTTP server metrics to closed sets: the {@code method} tag to the methods the API serves
 * (anything else — the HTTP layer takes any token as a method name, and each new one would add series that are never
 * dropped — is {@value #OTHER_METHOD}), and the {@code uri} tag to the routes' templates. With
 * {@code quarkus.micrometer.binder.http-server.suppress4xx-errors} Quarkus tags an unmatched answer of 400 or more
 * UNKNOWN and an unmatched 404 NOT_FOUND; this filter folds the remaining raw values into the same UNKNOWN: the two
 * names for "no route", and a request the client reset before it was answered (Quarkus records it with its raw path
 * and no status). So junk paths cannot grow the number of series, nor use up Micrometer's cap on uri values.
 */
public class HttpMetricTags {

    static final String UNMATCHED = "UNKNOWN";
    static final String OTHER_METHOD = "OTHER";
    /** The methods the API serves: the only values the method tag takes besides {@value #OTHER_METHOD}. */
    static final Set<String> METHODS = Set.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS");
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
                String method = id.getTag("method");
                boolean reset = status != null && !status.chars().allMatch(Character::isDigit);
                boolean foldUri = uri != null && (NO_ROUTE.contains(uri) || reset) && !uri.equals(UNMATCHED);
                boolean foldMethod = method != null && !METHODS.contains(method);
                if (!foldUri && !foldMethod) {
                    return id;
                }
                var tags = new java.util.ArrayList<Tag>();
                id.getTagsAsIterable().forEach(tag -> tags.add(
                        foldUri && tag.getKey().equals("uri") ? Tag.of("uri", UNMATCHED)
                                : foldMethod && tag.getKey().equals("method") ? Tag.of("method", OTHER_METHOD) : tag));
                return id.replaceTags(List.copyOf(tags));
            }
        };
    }
}
