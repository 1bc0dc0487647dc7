package dev.cairn.cricket;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.cairn.platform.ValidId;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

import java.util.Arrays;

public record Player(@ValidId String id, @NotBlank @Size(max = 100) String firstName,
                     @NotBlank @Size(max = 100) String lastName, @NotNull Role role) {

    public enum Role {
        BATTER("batter"), BOWLER("bowler"), ALL_ROUNDER("all-rounder"), WICKET_KEEPER("wicket-keeper");

        private final String text;

        Role(String text) {
            this.text = text;
        }

        @JsonValue
        public String text() {
            return text;
        }

        @JsonCreator
        public static Role of(String text) {
            return Arrays.stream(values()).filter(r -> r.text.equals(text)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("role must be one of batter, bowler, all-rounder, wicket-keeper"));
        }
    }
}
