package dev.cairn.cricket;

import dev.cairn.platform.ValidId;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

public record Team(@ValidId String id, @NotBlank @Size(max = 200) String name, @NotBlank @Size(max = 100) String country,
                   @NotNull @Min(1) @Max(1000) Integer ranking) {
}
