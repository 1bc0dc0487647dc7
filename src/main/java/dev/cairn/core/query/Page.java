package dev.cairn.core.query;

import java.util.List;
import java.util.function.Function;

/** One page of results and the opaque cursor of the next page (null on the last page). */
public record Page<T>(List<T> items, String next) {

    public Page {
        items = List.copyOf(items);
    }

    public <R> Page<R> map(Function<T, R> mapper) {
        return new Page<>(items.stream().map(mapper).toList(), next);
    }
}
