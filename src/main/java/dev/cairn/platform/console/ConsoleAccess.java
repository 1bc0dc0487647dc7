package dev.cairn.platform.console;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.platform.AccessPatterns;
import dev.cairn.platform.CairnConfig;
import dev.cairn.platform.auth.Caller;
import io.quarkus.arc.All;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.Optional;

/**
 * The console's rules, in one place for its views and its expression builder: the console can be switched off (then
 * it is not found), a scoped admin sees the partitions of its own workspaces and of the shared domains and nothing of
 * other tenants ({@link Caller#requireAllWorkspaces} refuses it what reads partitions every tenant shares).
 */
@ApplicationScoped
public class ConsoleAccess {

    private final CairnConfig config;
    private final List<AccessPatterns> domains;

    public ConsoleAccess(CairnConfig config, @All List<AccessPatterns> domains) {
        this.config = config;
        this.domains = domains;
    }

    public void requireEnabled() {
        if (!config.console().enabled()) {
            throw notFound();
        }
    }

    /** Whether the caller may see this partition: another tenant's reads as an empty one. */
    public boolean visible(Caller caller, String partitionKey) {
        return caller.allWorkspaces() || partitionKey == null || domains.stream()
                .map(d -> d.tenantOf(partitionKey)).flatMap(Optional::stream).allMatch(caller::canSee);
    }

    static CairnException notFound() {
        return new CairnException(new CairnError.NotFound("the console is not available here"));
    }
}
