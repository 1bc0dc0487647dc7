package dev.cairn.core.item;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.Map;
import java.util.Set;

/** Converts a record to the attributes that hold its domain fields, and back. */
public interface ItemCodec<T> {

    Map<String, AttributeValue> encode(T value);

    T decode(Map<String, AttributeValue> attributes);

    /** The attribute names this codec writes (used to reject clashes with system attributes). */
    Set<String> fieldNames();
}
