package dev.cairn.declared;

import dev.cairn.core.key.ShardedIds;
import dev.cairn.core.model.EntityModel;
import java.util.LinkedHashMap;
import java.util.function.Function;

import dev.cairn.core.model.DomainModel;
import dev.cairn.core.model.DomainPlan;
import dev.cairn.core.model.ModelException;
import dev.cairn.core.model.ModelReader;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * The model files on the class path: every {@code models/*.yaml} (src/main/resources/models in the source tree), read
 * in name order and made into one {@link DomainPlan}. A file that cannot be served stops the start with a
 * {@link ModelException} naming the file, the line and the field.
 */
public final class ModelFiles {

    static final String DIRECTORY = "models";

    private ModelFiles() {
    }

    public static DomainPlan plan(ClassLoader loader) {
        return plan(loader, setting -> null);
    }

    /**
     * As above, an index's {@code shards: {setting: key}} taken from {@code settings} (null: the declared default). A
     * setting outside 1 to 32 stops the start, naming the file and the key.
     */
    public static DomainPlan plan(ClassLoader loader, Function<String, Integer> settings) {
        var domains = new ArrayList<DomainModel>();
        for (String name : names(loader)) {
            String file = DIRECTORY + "/" + name;
            domains.add(resolved(ModelReader.read(file, read(loader, file)), settings));
        }
        return DomainPlan.of(domains);
    }

    private static DomainModel resolved(DomainModel domain, Function<String, Integer> settings) {
        var entities = new LinkedHashMap<String, EntityModel>();
        domain.entities().forEach((name, entity) -> entities.put(name, entity.withKeyedIndexes(entity.keyedIndexes().stream()
                .map(index -> {
                    Integer set = index.setting() == null ? null : settings.apply(index.setting());
                    if (set == null) {
                        return index;
                    }
                    if (set < 1 || set > ShardedIds.MAX_SHARDS) {
                        throw new ModelException(domain.file(), entity.line(), index.setting(),
                                "the setting gives index " + index.name() + " " + set + " shards: 1 to " + ShardedIds.MAX_SHARDS);
                    }
                    return index.withShards(set);
                }).toList())));
        return domain.withEntities(entities);
    }

    /** The file names under models/, from a directory (dev mode, tests) or a jar (the packaged app). */
    static List<String> names(ClassLoader loader) {
        var names = new TreeSet<String>();
        try {
            for (URL url : Collections.list(loader.getResources(DIRECTORY))) {
                if (url.getProtocol().equals("file")) {
                    try (Stream<Path> files = Files.list(Path.of(url.toURI()))) {
                        files.map(p -> p.getFileName().toString()).filter(ModelFiles::isModel).forEach(names::add);
                    }
                } else if (url.getProtocol().equals("jar")) {
                    var connection = (JarURLConnection) url.openConnection();
                    connection.setUseCaches(false);
                    try (JarFile jar = connection.getJarFile()) {
                        jar.stream().map(e -> e.getName()).filter(n -> n.startsWith(DIRECTORY + "/"))
                                .map(n -> n.substring(DIRECTORY.length() + 1))
                                .filter(n -> !n.contains("/") && isModel(n)).forEach(names::add);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        return List.copyOf(names);
    }

    private static boolean isModel(String name) {
        return name.endsWith(".yaml") || name.endsWith(".yml");
    }

    private static String read(ClassLoader loader, String file) {
        try (InputStream in = loader.getResourceAsStream(file)) {
            if (in == null) {
                throw new ModelException(file, 1, "", "cannot be read from the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
