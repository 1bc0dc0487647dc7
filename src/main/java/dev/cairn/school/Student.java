package dev.cairn.school;

import dev.cairn.platform.ValidId;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

public record Student(
        @ValidId String id,
        @NotBlank @Size(max = 200) String name,
        @NotNull @Min(1) @Max(20) Integer year,
        @NotBlank @Size(max = 200) String major) {
}
