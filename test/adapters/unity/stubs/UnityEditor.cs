// The members of UnityEditor the package reads in the Editor (under UNITY_EDITOR only: Bridge.DomainReloadDisabled), with
// Unity's signatures and values (Scripting API, EditorSettings.enterPlayModeOptionsEnabled, EditorSettings.enterPlayModeOptions,
// EnterPlayModeOptions; UnityCsReference Editor/Mono/EditorSettings.bindings.cs: a [Flags] enum, None 0, DisableDomainReload 1,
// DisableSceneReload 2). Defaults as in a new project before Unity 6: the options off, so Play mode reloads the domain.
using System;

namespace UnityEditor
{
    /// <summary>Scripting API: EnterPlayModeOptions, the flags for the Enter Play Mode Options.</summary>
    [Flags]
    public enum EnterPlayModeOptions
    {
        None = 0,
        DisableDomainReload = 1,
        DisableSceneReload = 2,
    }

    /// <summary>Scripting API: EditorSettings (project settings; the stand-in's are plain fields tests set).</summary>
    public static class EditorSettings
    {
        /// <summary>Whether the Enter Play Mode Options apply (off: Play mode reloads the domain and the scene).</summary>
        public static bool enterPlayModeOptionsEnabled = false;

        /// <summary>The options, applied only while <see cref="enterPlayModeOptionsEnabled"/>.</summary>
        public static EnterPlayModeOptions enterPlayModeOptions = EnterPlayModeOptions.DisableDomainReload | EnterPlayModeOptions.DisableSceneReload;
    }
}
