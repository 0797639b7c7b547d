/**
 * The server process's logging backend: one line per event on standard output, levels from system properties.
 * {@code bin/spool} selects it with {@code -Dslf4j.provider}; nothing registers it as a service, so an application
 * that embeds Spool keeps its own backend. It exists for start-up time: slf4j-simple searches every jar for its
 * properties file and formats time with {@code SimpleDateFormat}, whose locale data alone cost ~0.05 s here.
 */
package dev.spool.broker.logging;
