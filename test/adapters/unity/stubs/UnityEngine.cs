// The few UnityEngine (and AOT) members the Game Campaign package and its sample use, so that the package
// compiles with Debian's mcs in CI. Signatures follow UnityEngine.CoreModule / IMGUIModule; bodies do nothing
// beyond what the C# tests observe (logged exceptions).
using System;
using System.Collections.Generic;

namespace AOT
{
    /// <summary>Marks a static method that native code calls back (IL2CPP needs it for reverse P/Invoke).</summary>
    [AttributeUsage(AttributeTargets.Method)]
    public sealed class MonoPInvokeCallbackAttribute : Attribute
    {
        public MonoPInvokeCallbackAttribute(Type type) { Type = type; }
        public Type Type { get; private set; }
    }
}

namespace UnityEngine.Scripting
{
    /// <summary>Keeps a type or member through managed code stripping.</summary>
    [AttributeUsage(AttributeTargets.Assembly | AttributeTargets.Class | AttributeTargets.Struct | AttributeTargets.Enum | AttributeTargets.Constructor | AttributeTargets.Method | AttributeTargets.Property | AttributeTargets.Field | AttributeTargets.Event | AttributeTargets.Interface | AttributeTargets.Delegate, Inherited = false)]
    public class PreserveAttribute : Attribute { }
}

namespace UnityEngine
{
    /// <summary>When Unity calls a [RuntimeInitializeOnLoadMethod] (UnityEngine.CoreModule, same values).</summary>
    public enum RuntimeInitializeLoadType
    {
        AfterSceneLoad = 0,
        BeforeSceneLoad = 1,
        AfterAssembliesLoaded = 2,
        BeforeSplashScreen = 3,
        SubsystemRegistration = 4,
    }

    /// <summary>
    /// A static method Unity calls as the player (or Play mode) starts, also when Enter Play Mode Options skip the
    /// domain reload (Scripting API: RuntimeInitializeOnLoadMethodAttribute). The C# tests call the
    /// SubsystemRegistration ones to play a new Play mode session in the same domain.
    /// </summary>
    [AttributeUsage(AttributeTargets.Method, AllowMultiple = false)]
    public class RuntimeInitializeOnLoadMethodAttribute : Scripting.PreserveAttribute
    {
        public RuntimeInitializeOnLoadMethodAttribute() { loadType = RuntimeInitializeLoadType.AfterSceneLoad; }
        public RuntimeInitializeOnLoadMethodAttribute(RuntimeInitializeLoadType loadType) { this.loadType = loadType; }
        public RuntimeInitializeLoadType loadType { get; private set; }
    }

    public static class Debug
    {
        private static readonly List<Exception> logged = new List<Exception>();

        /// <summary>
        /// A copy of what LogException received so far (the C# tests read it). Unity's logging may be called from any
        /// thread (Scripting API: Application.logMessageReceivedThreaded, "regardless of whether the message comes in on
        /// the main thread or not"), and the SDK's worker threads do log (a continuation posted to a main thread already gone), so the
        /// stand-in locks and hands out copies: a probe serialising the list while a worker logs once failed with
        /// "Collection was modified".
        /// </summary>
        public static List<Exception> Exceptions { get { lock (logged) return new List<Exception>(logged); } }
        public static void Log(object message) { Console.WriteLine(message); }
        public static void LogWarning(object message) { Console.WriteLine("warning: " + message); }
        public static void LogError(object message) { Console.WriteLine("error: " + message); }
        public static void LogException(Exception exception) { lock (logged) logged.Add(exception); }
    }

    public class Object
    {
        /// <summary>Stand-in only: set by <see cref="Destroy"/>.</summary>
        internal bool destroyed;

        /// <summary>Keeps the object when a scene loads (Scripting API: Object.DontDestroyOnLoad); the stand-in has no scenes.</summary>
        public static void DontDestroyOnLoad(Object target) { }

        /// <summary>
        /// Scripting API: Object.Destroy. A GameObject goes with its components, each sent OnDestroy (Unity's message, found
        /// by name as Unity finds it); the stand-in destroys at once, where Unity waits for the end of the frame.
        /// </summary>
        public static void Destroy(Object target)
        {
            if (target == null) return;
            var components = target is GameObject ? ((GameObject)target).components.ToArray() : new Component[0];
            target.destroyed = true;
            foreach (var component in components)
            {
                component.destroyed = true;
                var message = component.GetType().GetMethod("OnDestroy", System.Reflection.BindingFlags.Instance | System.Reflection.BindingFlags.Public | System.Reflection.BindingFlags.NonPublic);
                if (message != null) message.Invoke(component, null);
            }
        }

        /// <summary>Unity's equality: a destroyed object equals null (its C# object lives on).</summary>
        public static bool operator ==(Object a, Object b)
        {
            var aNull = ReferenceEquals(a, null) || a.destroyed;
            var bNull = ReferenceEquals(b, null) || b.destroyed;
            if (aNull || bNull) return aNull && bNull;
            return ReferenceEquals(a, b);
        }

        public static bool operator !=(Object a, Object b) { return !(a == b); }

        public override bool Equals(object other) { return this == other as Object; }

        public override int GetHashCode() { return base.GetHashCode(); }
    }

    public class Component : Object
    {
        /// <summary>Scripting API: the GameObject this component is attached to.</summary>
        public GameObject gameObject { get; internal set; }
    }

    /// <summary>An asset holding data (UnityEngine.CoreModule); Unity makes instances, never `new`.</summary>
    public class ScriptableObject : Object
    {
        public static T CreateInstance<T>() where T : ScriptableObject, new() { return new T(); }
    }

    /// <summary>Lists a ScriptableObject type under Assets > Create (UnityEngine.CoreModule).</summary>
    [AttributeUsage(AttributeTargets.Class, Inherited = false)]
    public sealed class CreateAssetMenuAttribute : Attribute
    {
        public string menuName { get; set; }
        public string fileName { get; set; }
        public int order { get; set; }
    }
    public class Behaviour : Component { public bool enabled { get; set; } }
    public class MonoBehaviour : Behaviour { }

    [AttributeUsage(AttributeTargets.Field)]
    public sealed class SerializeField : Attribute { }

    [AttributeUsage(AttributeTargets.Field)]
    public sealed class TooltipAttribute : Attribute { public TooltipAttribute(string tooltip) { } }

    public sealed class GUILayoutOption { }

    public static class GUILayout
    {
        public static void Label(string text, params GUILayoutOption[] options) { }
        public static bool Button(string text, params GUILayoutOption[] options) { return false; }
        public static string TextField(string text, params GUILayoutOption[] options) { return text; }
        public static void BeginVertical(params GUILayoutOption[] options) { }
        public static void EndVertical() { }
        public static void BeginHorizontal(params GUILayoutOption[] options) { }
        public static void EndHorizontal() { }
        public static GUILayoutOption Width(float width) { return new GUILayoutOption(); }
    }
}
