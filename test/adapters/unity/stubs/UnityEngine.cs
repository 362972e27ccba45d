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

namespace UnityEngine
{
    public static class Debug
    {
        /// <summary>What LogException received (the C# tests read it).</summary>
        public static readonly List<Exception> Exceptions = new List<Exception>();
        public static void Log(object message) { Console.WriteLine(message); }
        public static void LogWarning(object message) { Console.WriteLine("warning: " + message); }
        public static void LogError(object message) { Console.WriteLine("error: " + message); }
        public static void LogException(Exception exception) { Exceptions.Add(exception); }
    }

    public class Object
    {
        /// <summary>Stand-in only: every object DontDestroyOnLoad was given.</summary>
        public static readonly List<Object> Kept = new List<Object>();
        public static void DontDestroyOnLoad(Object target) { Kept.Add(target); }
    }

    public class Component : Object
    {
        public GameObject gameObject { get; internal set; }
    }

    public class Behaviour : Component { public bool enabled { get; set; } }
    public class MonoBehaviour : Behaviour { }

    /// <summary>Scripting API: GameObject(string), AddComponent&lt;T&gt;(). The stand-in constructs the component (Unity does it natively).</summary>
    public sealed class GameObject : Object
    {
        public GameObject(string name) { this.name = name; }
        public string name { get; set; }
        public T AddComponent<T>() where T : Component, new()
        {
            var component = new T();
            component.gameObject = this;
            return component;
        }
    }

    /// <summary>Scripting API: RuntimeInitializeLoadType (the order Unity runs [RuntimeInitializeOnLoadMethod] methods in).</summary>
    public enum RuntimeInitializeLoadType { AfterSceneLoad, BeforeSceneLoad, AfterAssembliesLoaded, BeforeSplashScreen, SubsystemRegistration }

    /// <summary>Scripting API: RuntimeInitializeOnLoadMethodAttribute (a static method Unity calls at start-up, and when Play mode starts even without a domain reload).</summary>
    [AttributeUsage(AttributeTargets.Method)]
    public sealed class RuntimeInitializeOnLoadMethodAttribute : Attribute
    {
        public RuntimeInitializeOnLoadMethodAttribute() { }
        public RuntimeInitializeOnLoadMethodAttribute(RuntimeInitializeLoadType loadType) { this.loadType = loadType; }
        public RuntimeInitializeLoadType loadType { get; private set; }
    }

    /// <summary>Scripting API: NetworkReachability, what Application.internetReachability answers.</summary>
    public enum NetworkReachability { NotReachable, ReachableViaCarrierDataNetwork, ReachableViaLocalAreaNetwork }

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
