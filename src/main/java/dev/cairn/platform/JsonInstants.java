package dev.cairn.platform;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.BeanProperty;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.ContextualSerializer;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.fasterxml.jackson.datatype.jsr310.ser.InstantSerializer;
import dev.cairn.core.item.Timestamps;
import io.quarkus.jackson.ObjectMapperCustomizer;
import jakarta.inject.Singleton;

import java.io.IOException;
import java.time.Instant;

/**
 * Instants in answers are written as Jackson's Java-time module writes them, {@link Instant#toString}'s text, but by
 * {@link Timestamps#text} instead of its {@code DateTimeFormatter}: the listing routes write two instants per item, and
 * formatting them was the largest part of writing a page (profile). Where the module would write something else (dates
 * as timestamps, or a {@code @JsonFormat} on the property) it is the module's serializer that writes.
 */
@Singleton
public class JsonInstants implements ObjectMapperCustomizer {

    @Override
    public void customize(ObjectMapper mapper) {
        mapper.registerModule(new SimpleModule("cairn-instants").addSerializer(Instant.class, new Text()));
    }

    /** Applied after every other customizer, so this serializer is found before the Java-time module's. */
    @Override
    public int priority() {
        return MINIMUM_PRIORITY;
    }

    static final class Text extends StdSerializer<Instant> implements ContextualSerializer {

        Text() {
            super(Instant.class);
        }

        @Override
        public void serialize(Instant value, JsonGenerator json, SerializerProvider provider) throws IOException {
            if (provider.isEnabled(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)) {
                InstantSerializer.INSTANCE.serialize(value, json, provider);
            } else {
                json.writeString(Timestamps.text(value));
            }
        }

        @Override
        public JsonSerializer<?> createContextual(SerializerProvider provider, BeanProperty property)
                throws JsonMappingException {
            JsonFormat.Value format = findFormatOverrides(provider, property, Instant.class);
            return format == null || format.equals(JsonFormat.Value.empty()) ? this
                    : InstantSerializer.INSTANCE.createContextual(provider, property);
        }
    }
}
