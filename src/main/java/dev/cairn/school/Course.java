package dev.cairn.school;

import dev.cairn.platform.ValidId;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

public record Course(
        @ValidId String id,
        @NotBlank @Size(max = 200) String title,
        @NotNull @Min(0) @Max(60) Integer credits,
        @NotBlank @Size(max = 64) String term) {
}
