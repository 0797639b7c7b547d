package dev.spool.broker.group;

/**
 * One assignment protocol a member supports (e.g. "range" with its subscription bytes), in the
 * member's order of preference. Immutable (the bytes are never modified).
 */
record MemberProtocol(String name, byte[] metadata) {
}
