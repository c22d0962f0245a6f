package io.keyranger.support;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A suite that guards data: the class runs once per emulator of {@link SharedEmulator#dataSuites()} (the legacy
 * Datastore emulator and the Firestore emulator in Datastore mode). The class takes its emulator in a field
 * {@code @Parameter ServerType server;} and uses it for its projects, key order and limits; {@link OnlyOn} marks what
 * runs on one of them only.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ParameterizedClass(name = "on {0}")
@MethodSource("io.keyranger.support.SharedEmulator#dataSuites")
@ExtendWith(OnlyOn.Condition.class)
public @interface OnDataEmulators {
}
