// Outside a WebGL player only: there the JavaScript SDK runs (Native.cs).
#if !UNITY_WEBGL || UNITY_EDITOR
using System;
using System.Collections.Generic;
using System.IO;
using System.Security.Cryptography;
using System.Text;
using UnityEngine;

namespace GameCampaignSdk
{
    /// <summary>
    /// The finished sessions waiting for the relay, one JSON file per player under
    /// <c>Application.persistentDataPath/GameCampaign/</c> (the file is named by a hash of the userId, so any id is a
    /// safe file name and one player's queue is never sent with another's credentials). Written whole to a
    /// temporary file and moved over the old one, so a crash leaves either queue, never half of one.
    /// </summary>
    internal sealed class SessionQueue
    {
        /// <summary>At most this many sessions are kept; beyond it the oldest is dropped (the JavaScript tracker's default).</summary>
        internal const int MaxSessions = 10000;

        private readonly string path;

        internal SessionQueue(string userId)
        {
            string name;
            using (var sha = new SHA256Managed()) name = RandomIds.Base64Url(sha.ComputeHash(Encoding.UTF8.GetBytes(userId))).Substring(0, 22);
            path = Path.Combine(Path.Combine(Application.persistentDataPath, "GameCampaign"), "queue-" + name + ".json");
        }

        /// <summary>The file this player's queue lives in.</summary>
        internal string FilePath { get { return path; } }

        /// <summary>The queued sessions, oldest first (empty when there is no file or it cannot be read).</summary>
        internal List<Dictionary<string, object>> Load()
        {
            var sessions = new List<Dictionary<string, object>>();
            if (!File.Exists(path)) return sessions;
            var items = Json.Parse(File.ReadAllText(path, Encoding.UTF8)) as List<object>;
            if (items != null) foreach (var item in items) if (item is Dictionary<string, object>) sessions.Add((Dictionary<string, object>)item);
            return sessions;
        }

        /// <summary>Adds a session; returns the sessions pushed out by the cap (oldest first).</summary>
        internal List<Dictionary<string, object>> Add(Dictionary<string, object> session)
        {
            var sessions = Load();
            sessions.Add(session);
            var overflow = new List<Dictionary<string, object>>();
            while (sessions.Count > MaxSessions)
            {
                overflow.Add(sessions[0]);
                sessions.RemoveAt(0);
            }
            Save(sessions);
            return overflow;
        }

        /// <summary>Removes the sessions with these ids.</summary>
        internal void Remove(ICollection<string> sessionIds)
        {
            var sessions = Load();
            sessions.RemoveAll(session => sessionIds.Contains(Json.Str(session, "sessionId")));
            Save(sessions);
        }

        private void Save(List<Dictionary<string, object>> sessions)
        {
            Directory.CreateDirectory(Path.GetDirectoryName(path));
            var temporary = path + ".tmp";
            File.WriteAllText(temporary, Json.Serialize(sessions), new UTF8Encoding(false));
            if (File.Exists(path)) File.Replace(temporary, path, null);
            else File.Move(temporary, path);
        }
    }
}
#endif
