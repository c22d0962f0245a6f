package io.keyranger.ui.run;

import io.keyranger.KeyRangerException;
import io.keyranger.cost.PriceTable;
import io.keyranger.dryrun.DryRunner;
import io.keyranger.job.JobSpec;
import io.keyranger.launch.Consent;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.summary.Operations;
import io.keyranger.ui.common.KindTarget;
import java.util.List;
import java.util.function.Supplier;
import javafx.beans.value.ObservableValue;

/**
 * The price of the job Start runs, and what the user must agree to before it runs ({@link JobGuard} asks it): the
 * estimate every front end gives ({@link Operations#estimate}), from the dry run's figures when the Mapper tab dry-ran
 * this very job, so the confirmation, the dry run and the finished job give one price.
 */
public final class StartPrice {
    private final ObservableValue<KindTarget> target;
    private final JobForm form;
    private final Supplier<PriceTable> prices;
    /** The dry run the Mapper tab showed last, or null: the price of the same job when Start runs it. */
    private ShownDryRun dryRun;

    StartPrice(ObservableValue<KindTarget> target, JobForm form, Supplier<PriceTable> prices) {
        this.target = target;
        this.form = form;
        this.prices = prices;
    }

    /**
     * What the user must agree to before Start runs the form's job over the current target, or over the checked
     * kinds. Null without a kind, or for a spec the form refuses (Start says why).
     */
    public Consent consent() {
        KindTarget t = target.getValue();
        if (t == null) {
            return null;
        }
        try {
            if (!form.kinds().isEmpty()) {
                return Consent.of(t.session().spec(), MapperSpec.parse(form.mapperJsonProperty().get()), 0,
                        List.copyOf(form.kinds()), false, -1, prices.get(), null);
            }
            JobSpec job = form.spec(t);
            ShownDryRun shown = dryRun;
            boolean same = shown != null && shown.namespace().equals(job.namespace())
                    && shown.kind().equals(job.kind()) && shown.spec().json().equals(job.mapper().json());
            return Consent.of(t.session().spec(), job.mapper(), job.pageSize(), List.of(), false,
                    job.kind().equals(t.kind()) ? t.countOrUnknown() : -1, prices.get(), same ? shown.result() : null);
        } catch (KeyRangerException e) {
            return null;
        }
    }

    /** The Mapper tab showed a dry run of {@code spec} over {@code kind}: the estimate of that job from now on. */
    public void dryRunShown(String namespace, String kind, MapperSpec spec, DryRunner.Result result) {
        dryRun = new ShownDryRun(namespace, kind, spec, result);
    }

    /** A job ran: data may have changed since, so a dry run before it prices nothing after it. */
    void jobRan() {
        dryRun = null;
    }

    /** A dry run the Mapper tab showed. */
    private record ShownDryRun(String namespace, String kind, MapperSpec spec, DryRunner.Result result) {
    }
}
