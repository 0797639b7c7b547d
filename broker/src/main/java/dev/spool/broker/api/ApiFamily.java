package dev.spool.broker.api;

/**
 * The handler of a family of APIs (groups, offsets, topics, configs): it registers one typed method per API,
 * with the versions it serves, so that adding an API to a family is one line where the family is written.
 */
public interface ApiFamily {

    void registerIn(ApiRegistry registry);
}
