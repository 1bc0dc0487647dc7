package dev.cairn.core.expr.builder;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * An attribute or a document path inside one: names separated by dots, list elements by index
 * ({@code address.city}, {@code tags[0]}, {@code scores[2].value}). Every name becomes a {@code #name} placeholder,
 * so names may hold spaces, {@code #} or {@code :}; a name with a dot or a bracket in it cannot be written here.
 */
public record DocumentPath(List<Object> segments) {

    public DocumentPath {
        segments = List.copyOf(segments);
    }

    public static DocumentPath parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("an attribute name is required");
        }
        var segments = new ArrayList<Object>();
        for (String part : text.split("\\.", -1)) {
            int bracket = part.indexOf('[');
            String name = bracket < 0 ? part : part.substring(0, bracket);
            if (name.isEmpty()) {
                throw new IllegalArgumentException("'" + text + "': every part of a path starts with a name"
                        + " (a.b, a[0], a[0].b)");
            }
            if (name.contains("]")) {
                throw new IllegalArgumentException("'" + text + "': a ] without its [");
            }
            segments.add(name);
            String rest = bracket < 0 ? "" : part.substring(bracket);
            while (!rest.isEmpty()) {
                int close = rest.indexOf(']');
                if (!rest.startsWith("[") || close < 2) {
                    throw new IllegalArgumentException("'" + text + "': a list index is a number in brackets, e.g. [0]");
                }
                String digits = rest.substring(1, close);
                if (!digits.chars().allMatch(Character::isDigit) || digits.length() > 9) {
                    throw new IllegalArgumentException("'" + text + "': a list index is a number in brackets, e.g. [0]");
                }
                segments.add(Integer.parseInt(digits));
                rest = rest.substring(close + 1);
            }
        }
        return new DocumentPath(segments);
    }

    /** The attribute the path starts at. */
    public String attribute() {
        return (String) segments.get(0);
    }

    /** The last name in the path ({@code city} of {@code address.city}, {@code tags} of {@code tags[0]}). */
    public String lastName() {
        for (int i = segments.size() - 1; i >= 0; i--) {
            if (segments.get(i) instanceof String name) {
                return name;
            }
        }
        throw new IllegalStateException("a path starts with a name");
    }

    public boolean isAttribute() {
        return segments.size() == 1;
    }

    public List<String> names() {
        return segments.stream().filter(String.class::isInstance).map(String.class::cast).toList();
    }

    /** The path with each name replaced by its placeholder. */
    public String render(Function<String, String> placeholder) {
        var out = new StringBuilder();
        for (Object segment : segments) {
            if (segment instanceof Integer index) {
                out.append('[').append(index).append(']');
            } else {
                out.append(out.isEmpty() ? "" : ".").append(placeholder.apply((String) segment));
            }
        }
        return out.toString();
    }

    /** Whether one path is the other or lies inside it: DynamoDB refuses two such paths in one update. */
    public boolean overlaps(DocumentPath other) {
        int common = Math.min(segments.size(), other.segments.size());
        return segments.subList(0, common).equals(other.segments.subList(0, common));
    }

    @Override
    public String toString() {
        return render(name -> name);
    }
}
