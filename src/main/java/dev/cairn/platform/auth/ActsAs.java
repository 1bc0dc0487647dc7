package dev.cairn.platform.auth;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A write that acts as the user named by the path parameter {@link #value()} (changing the user, posting as the
 * user): only that user, by the token's subject, or an admin may call it; anyone else gets a 403.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface ActsAs {
    String value();
}
