// The members of UnityEngine the managed tracker's lifecycle object uses, with Unity's signatures (Scripting API:
// GameObject, GameObject.AddComponent, NetworkReachability, Time.realtimeSinceStartupAsDouble;
// docs.unity3d.com/ScriptReference). Unity sends Update/OnApplicationPause/OnApplicationFocus to the component
// itself; the tests call them as Unity would.
using System.Diagnostics;

namespace UnityEngine
{
    /// <summary>Scripting API: Time. The stand-in's real time is a Stopwatch started with the process.</summary>
    public static class Time
    {
        private static readonly Stopwatch SinceStartup = Stopwatch.StartNew();

        /// <summary>Seconds since the player started, real time (not scaled, not paused by timeScale); Unity 2020.2+.</summary>
        public static double realtimeSinceStartupAsDouble { get { return SinceStartup.Elapsed.TotalSeconds; } }
    }

    /// <summary>Scripting API: GameObject(string) and AddComponent&lt;T&gt;(). The stand-in constructs the component (Unity does it natively).</summary>
    public sealed class GameObject : Object
    {
        /// <summary>Stand-in only: every component added to a GameObject and not destroyed (what Unity sends messages to).</summary>
        public static readonly System.Collections.Generic.List<Component> Live = new System.Collections.Generic.List<Component>();

        internal readonly System.Collections.Generic.List<Component> components = new System.Collections.Generic.List<Component>();

        public GameObject(string name) { this.name = name; }
        public string name { get; set; }

        public T AddComponent<T>() where T : Component, new()
        {
            var component = new T();
            component.gameObject = this;
            components.Add(component);
            Live.Add(component);
            Live.RemoveAll(each => each.destroyed);
            var added = Added;
            if (added != null) added(component);
            return component;
        }

        /// <summary>Stand-in only: hears each component as AddComponent ends (tests send what Unity sends just after Awake).</summary>
        public static System.Action<Component> Added;
    }

    /// <summary>Scripting API: NetworkReachability, what Application.internetReachability answers.</summary>
    public enum NetworkReachability { NotReachable, ReachableViaCarrierDataNetwork, ReachableViaLocalAreaNetwork }
}
