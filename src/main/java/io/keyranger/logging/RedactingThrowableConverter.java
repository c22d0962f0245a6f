package io.keyranger.logging;

import ch.qos.logback.classic.pattern.ThrowableProxyConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;

/** {@code %redactedEx}: the stack trace with credentials in exception messages masked. */
public final class RedactingThrowableConverter extends ThrowableProxyConverter {
    @Override
    public String convert(ILoggingEvent event) {
        return Redaction.redact(super.convert(event));
    }
}
