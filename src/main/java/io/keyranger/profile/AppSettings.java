package io.keyranger.profile;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Application settings in {@code settings.json}.
 *
 * @param cloudSdkPath the Google Cloud SDK's root directory, or null to find it from PATH or CLOUDSDK_ROOT
 * @param darkTheme    whether the GUI uses the dark theme
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AppSettings(String cloudSdkPath, boolean darkTheme) {
    public static final AppSettings DEFAULTS = new AppSettings(null, false);

    public AppSettings withDarkTheme(boolean dark) {
        return new AppSettings(cloudSdkPath, dark);
    }
}
