package dev.cairn.platform.limits;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks an operation that only reads though its method is not GET (its input is a body, e.g. the console's expression
 * builder): the per-caller limits treat it as a read — it reserves and is charged read capacity, and takes no write.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Reads {
}
