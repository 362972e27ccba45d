// Outside a WebGL player only: there the JavaScript SDK runs (Native.cs).
#if !UNITY_WEBGL || UNITY_EDITOR
using System;
using UnityEngine;

namespace GameCampaignSdk
{
    /// <summary>
    /// Unity's lifecycle messages for the managed tracker, from one hidden object that survives scene loads:
    /// <c>Update</c> runs the due timers (<see cref="ManagedTimers"/>) and watches
    /// <c>Application.internetReachability</c>; <c>OnApplicationPause</c> and <c>OnApplicationFocus</c> tell when the
    /// game goes to and returns from the background. Android and iOS send focus loss then pause, and on return pause
    /// end then focus; desktop players and the Editor send focus only. So on a desktop or in the Editor the game is in
    /// the background while either says so, and back when the pause ends or focus returns unpaused. On a phone
    /// (<c>Application.isMobilePlatform</c>) only the pause is: there focus also goes while the game is on screen and
    /// played, to the game's own on-screen keyboard (Unity's manual, <c>MonoBehaviour.OnApplicationFocus</c>: "On
    /// Android, when the on-screen keyboard is enabled, it causes an OnApplicationFocus(false) event") and to a system
    /// dialog or panel over it; leaving the game pauses it.
    /// assumed: focus loss counts as the background on desktops (a desktop game behind another window is not being played).
    /// The state when the object is made (at the first <c>Init</c>) is read from <c>Application.isFocused</c>: no message
    /// tells a component made later that focus went before it existed.
    /// </summary>
    internal sealed class ManagedLifecycle : MonoBehaviour
    {
        private static ManagedLifecycle instance;
        /// <summary>Application.quitting was raised (the player exits, or Play mode ends): objects destroyed now are not replaced.</summary>
        private static bool quitting;
        private static bool quittingHooked;
        private bool paused;
        private bool unfocused;
        private bool wasReachable = true;

        /// <summary>The game went to the background.</summary>
        internal static event Action Backgrounded;
        /// <summary>The game came back to the foreground.</summary>
        internal static event Action Foregrounded;
        /// <summary><c>Application.internetReachability</c> went from NotReachable to reachable.</summary>
        internal static event Action NetworkReturned;

        /// <summary>The one instance, created on first use (on the main thread).</summary>
        internal static ManagedLifecycle Instance
        {
            get
            {
                if (instance == null)
                {
                    if (!quittingHooked)
                    {
                        Application.quitting += OnQuitting;
                        quittingHooked = true;
                    }
                    var host = new GameObject("GameCampaign (tracker lifecycle)");
                    DontDestroyOnLoad(host);
                    instance = host.AddComponent<ManagedLifecycle>();
                    instance.wasReachable = Online;
                    // Unity tells components of focus changes only: a desktop window already behind another when this is
                    // made (the player switched away during the loading screen) would say nothing until it came back.
                    // A headless run (-batchmode: a CI's Play mode tests, a server build) has no window to have focus.
                    instance.unfocused = !Application.isFocused && !Application.isMobilePlatform && !Application.isBatchMode;
                }
                return instance;
            }
        }

        /// <summary>Whether the device says it can reach the internet (a guess: a request may still fail).</summary>
        internal static bool Online { get { return Application.internetReachability != NetworkReachability.NotReachable; } }

        /// <summary>In the background now (paused, or without focus).</summary>
        internal bool InBackground { get { return paused || unfocused; } }

        internal void Update()
        {
            var reachable = Online;
            if (reachable && !wasReachable) EventHandlers.Raise(NetworkReturned);
            wasReachable = reachable;
            ManagedTimers.Tick();
        }

        internal void OnApplicationPause(bool pauseStatus)
        {
            var before = InBackground;
            // Only the end of a pause seen brings the focus back: Unity also sends pause(false) to every component just after
            // its Awake (Unity's manual, MonoBehaviour.OnApplicationPause: "All MonoBehaviours receive this event while they are
            // initializing, just after Awake"), which, arriving after Instance read Application.isFocused, made a window that
            // starts behind another count as played.
            if (!pauseStatus && paused) unfocused = false;
            paused = pauseStatus;
            Changed(before);
        }

        internal void OnApplicationFocus(bool hasFocus)
        {
            var before = InBackground;
            unfocused = !hasFocus && !Application.isMobilePlatform;
            Changed(before);
        }

        private void Changed(bool before)
        {
            if (InBackground == before) return;
            // Going to the background, the tracker writes its checkpoint before this returns (Android and iOS may kill
            // the paused app without another message): ManagedTracker.ToBackground.
            EventHandlers.Raise(InBackground ? Backgrounded : Foregrounded);
            // Back from a pause: timers that fell due while no frame ran (a background time-out) run now.
            if (!InBackground) ManagedTimers.Tick();
        }

        private static void OnQuitting() { quitting = true; }

        /// <summary>
        /// The game destroyed this object (a reset that destroys every DontDestroyOnLoad object, the host among them): with
        /// nothing to receive Update and the pause, no timer ran and the background counted as play. A new one takes over at
        /// once with what this one knew (paused, focus, network). Not while quitting: Unity destroys everything then.
        /// </summary>
        internal void OnDestroy()
        {
            if (!ReferenceEquals(instance, this)) return;
            instance = null;
            if (quitting) return;
            var next = Instance;
            next.paused = paused;
            next.unfocused = unfocused;
            next.wasReachable = wasReachable;
        }

        /// <summary>Forgets the instance and the listeners: a new process, or Play mode entered again without a domain reload.</summary>
        [RuntimeInitializeOnLoadMethod(RuntimeInitializeLoadType.SubsystemRegistration)]
        internal static void ResetStatics()
        {
            if (!Bridge.LastPlaySessionMayRemain) return;
            instance = null;
            Application.quitting -= OnQuitting;
            quittingHooked = false;
            quitting = false;
            Backgrounded = null;
            Foregrounded = null;
            NetworkReturned = null;
        }
    }
}
#endif
