package dev.cairn.platform.auth;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The routes of this resource name a workspace in the path parameter {@link #value()}; a caller whose scope does
 * not hold it gets the same 404 as for a missing workspace.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface WorkspaceScoped {
    String value() default "id";
}
