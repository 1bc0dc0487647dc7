package dev.cairn.platform.auth;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a resource that takes every path and routes within itself (the declared domains): a request for a path or
 * method it does not serve is answered 404 or 405 by it before any authorization, as quarkus-rest answers for the
 * other resources, so a missing route never looks like a missing permission.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
public @interface RoutesWithin {
}
