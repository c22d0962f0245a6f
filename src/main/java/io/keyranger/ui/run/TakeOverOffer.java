package io.keyranger.ui.run;

/**
 * A resume that was refused because another runner holds the job: the view asks whether to take it over.
 *
 * @param jobId   the job
 * @param message who holds it, since when, and what a take-over does
 */
public record TakeOverOffer(String jobId, String message) {
}
