package dev.cairn.jobs;

import dev.cairn.platform.Http;
import dev.cairn.platform.ValidId;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The body of {@code POST /maintenance/reconcile}: its scope ({@code {}} is everything) and, optionally, its pace. */
@Schema(name = "ReconcileRequest", description = "What to reconcile: one source (entity and id), one entity type "
        + "(entity), or every copy in the table ({}); an id without an entity is refused (400)")
public record ReconcileRequest(
        @Schema(description = "A source entity type whose copies are kept (team, player, coach, venue, "
                + "or a declared one such as student, course, book, author; any case)", maxLength = 64)
        @Size(min = 1, max = 64) String entity,
        @Schema(description = "One source of that type: only its copies", maxLength = Http.MAX_ID_LENGTH)
        @Size(min = 1, max = Http.MAX_ID_LENGTH) @Pattern(regexp = ValidId.PATTERN, flags = Pattern.Flag.UNIX_LINES, message = ValidId.MESSAGE) String id,
        @Schema(description = "Copies checked per second at most (default cairn.reconcile.rate)", minimum = "1",
                maximum = "10000")
        @Min(1) @Max(10000) Integer rate) {
}
