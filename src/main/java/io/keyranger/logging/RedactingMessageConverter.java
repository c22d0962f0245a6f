package io.keyranger.logging;

import ch.qos.logback.classic.pattern.MessageConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;

/** {@code %redactedMsg}: the log message with credentials masked. */
public final class RedactingMessageConverter extends MessageConverter {
    @Override
    public String convert(ILoggingEvent event) {
        return Redaction.redact(super.convert(event));
    }
}
