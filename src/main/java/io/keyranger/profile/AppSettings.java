package io.keyranger.profile;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.keyranger.cost.PriceTable;

/**
 * Application settings in {@code settings.json}.
 *
 * @param cloudSdkPath the Google Cloud SDK's root directory, or null to find it from PATH or CLOUDSDK_ROOT
 * @param darkTheme    whether the GUI uses the dark theme
 * @param prices       the per-operation prices to estimate and report job costs with, or null for the built-in
 *                     table ({@link io.keyranger.cost.PriceTable#BUILT_IN})
 * @param window       the main window's last size, position and dividers, or null before it first closed
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AppSettings(String cloudSdkPath, boolean darkTheme, PriceTable prices,
                          WindowLayout window) {
    public static final AppSettings DEFAULTS = new AppSettings(null, false, null, null);

    public AppSettings(String cloudSdkPath, boolean darkTheme) {
        this(cloudSdkPath, darkTheme, null, null);
    }

    public AppSettings withDarkTheme(boolean dark) {
        return new AppSettings(cloudSdkPath, dark, prices, window);
    }

    public AppSettings withWindow(WindowLayout layout) {
        return new AppSettings(cloudSdkPath, darkTheme, prices, layout);
    }

    /** The prices to use: the user's, or the built-in table. */
    public PriceTable priceTable() {
        return prices != null ? prices : PriceTable.BUILT_IN;
    }
}
