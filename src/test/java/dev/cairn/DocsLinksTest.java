package dev.cairn;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** The docs stay true to themselves: every relative link and anchor resolves, and they speak of the project only. */
class DocsLinksTest {

    private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*)$", Pattern.MULTILINE);
    private static final Pattern WORK_STEP = Pattern.compile("(?i)\\bsession \\d+|(?<![\\w#/])#\\d{1,4}\\b");

    static List<Path> pages() throws IOException {
        var pages = new ArrayList<Path>();
        pages.add(Path.of("README.md"));
        try (Stream<Path> docs = Files.list(Path.of("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    /** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
    static String anchor(String heading) {
        return heading.strip().toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}_\\- ]", "").replace(' ', '-');
    }

    static Set<String> anchorsOf(Path page) throws IOException {
        var anchors = new HashSet<String>();
        Matcher m = HEADING.matcher(withoutCodeBlocks(Files.readString(page)));
        while (m.find()) {
            anchors.add(anchor(m.group(1)));
        }
        return anchors;
    }

    static String withoutCodeBlocks(String markdown) {
        return markdown.replaceAll("(?s)```.*?```", "");
    }

    @Test
    void everyRelativeLinkAndAnchorResolves() throws IOException {
        var broken = new ArrayList<String>();
        for (Path page : pages()) {
            Matcher m = LINK.matcher(withoutCodeBlocks(Files.readString(page)));
            while (m.find()) {
                String target = m.group(1);
                if (target.matches("^[a-z]+:.*")) {
                    continue;
                }
                String file = target.contains("#") ? target.substring(0, target.indexOf('#')) : target;
                String fragment = target.contains("#") ? target.substring(target.indexOf('#') + 1) : null;
                Path resolved = file.isEmpty() ? page : page.resolveSibling(file).normalize();
                if (!Files.exists(resolved)) {
                    broken.add(page + ": " + target + " (no such file)");
                } else if (fragment != null && !anchorsOf(resolved).contains(fragment)) {
                    broken.add(page + ": " + target + " (no such heading)");
                }
            }
        }
        assertThat(broken).isEmpty();
    }

    @Test
    void theReadmeIsAFrontDoorWithAMapOfEveryPage() throws IOException {
        String readme = Files.readString(Path.of("README.md"));
        assertThat(readme.lines().count()).isLessThanOrEqualTo(160);
        for (Path page : pages().subList(1, pages().size())) {
            assertThat(readme).as("the README's map links " + page).contains("](docs/" + page.getFileName() + ")");
        }
    }

    @Test
    void theDocsNameNoInternalWorkStepsOrTrackerNumbers() throws IOException {
        var found = new ArrayList<String>();
        for (Path page : pages()) {
            Matcher m = WORK_STEP.matcher(Files.readString(page));
            while (m.find()) {
                found.add(page + ": " + m.group());
            }
        }
        assertThat(found).isEmpty();
    }
}
