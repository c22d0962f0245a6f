package io.keyranger.support;

import io.keyranger.datastore.ServerType;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.lang.reflect.Field;
import java.util.Arrays;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.params.Parameter;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * A test of an {@link OnDataEmulators} class that runs on some of the emulators only, and why. With
 * {@code byDefault = true} the reason is time, not the server: {@code -Dkeyranger.emulators.all=true} runs it on
 * every emulator of {@link SharedEmulator#dataSuites()}.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
public @interface OnlyOn {
    /**
     * Why a test that waits out a dead runner's locks runs on the legacy emulator only by default: its case runs on the
     * Firestore emulator in the test named after this.
     */
    String HELD_LOCKS = "a killed or frozen runner's open transactions hold their locks for 60 s on the Firestore "
            + "emulator: to keep mvn verify short, that case runs there in ";

    ServerType[] value();

    /** Why the other emulators are left out. */
    String why();

    /** Whether the others are left out only by default (to keep {@code mvn verify} short), not because they differ. */
    boolean byDefault() default false;

    /** Skips a test whose {@link OnlyOn} leaves out the emulator its class instance runs on. */
    final class Condition implements ExecutionCondition {
        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            OnlyOn only = context.getTestMethod()
                    .flatMap(m -> AnnotationSupport.findAnnotation(m, OnlyOn.class)).orElse(null);
            if (only == null || context.getTestInstance().isEmpty()) {
                return ConditionEvaluationResult.enabled("on every emulator");
            }
            ServerType server = serverOf(context.getTestInstance().get());
            if (Arrays.asList(only.value()).contains(server)
                    || (only.byDefault() && Boolean.getBoolean("keyranger.emulators.all"))) {
                return ConditionEvaluationResult.enabled("runs on " + server);
            }
            return ConditionEvaluationResult.disabled("not on " + server + ": " + only.why()
                    + (only.byDefault() ? " (-Dkeyranger.emulators.all=true runs it)" : ""));
        }

        private static ServerType serverOf(Object instance) {
            for (Class<?> c = instance.getClass(); c != null; c = c.getSuperclass()) {
                for (Field field : c.getDeclaredFields()) {
                    if (field.getType() == ServerType.class
                            && field.isAnnotationPresent(Parameter.class)) {
                        try {
                            field.setAccessible(true);
                            return (ServerType) field.get(instance);
                        } catch (IllegalAccessException e) {
                            throw new IllegalStateException(e);
                        }
                    }
                }
            }
            throw new IllegalStateException(instance.getClass() + " has no @Parameter ServerType field");
        }
    }
}
