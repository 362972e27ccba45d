// Outside a WebGL player only: there the JavaScript SDK runs (Native.cs).
#if !UNITY_WEBGL || UNITY_EDITOR
using System;
using System.Security.Cryptography;
using System.Text;

namespace GameCampaignSdk
{
    /// <summary>Session ids (UUIDv4) and the web view's PKCE pair (RFC 7636, S256), from the OS's random source.</summary>
    internal static class RandomIds
    {
        // Constructed directly, not through RandomNumberGenerator.Create()/SHA256.Create(), which look the type up by name
        // (CryptoConfig): code IL2CPP's managed stripping cannot see, so nothing here needs a link.xml.
        private static readonly RandomNumberGenerator Source = new RNGCryptoServiceProvider();

        internal static byte[] Bytes(int count)
        {
            var bytes = new byte[count];
            Source.GetBytes(bytes);
            return bytes;
        }

        /// <summary>A UUIDv4 (RFC 9562 layout: version nibble 4, variant bits 10), as core/tracker/session-id.ts makes them.</summary>
        internal static string SessionId()
        {
            var b = Bytes(16);
            b[6] = (byte)((b[6] & 0x0f) | 0x40);
            b[8] = (byte)((b[8] & 0x3f) | 0x80);
            var hex = new StringBuilder(36);
            for (var i = 0; i < 16; i++)
            {
                if (i == 4 || i == 6 || i == 8 || i == 10) hex.Append('-');
                hex.Append(b[i].ToString("x2"));
            }
            return hex.ToString();
        }

        /// <summary>A code verifier (Base64URL of 32 random bytes: 43 characters) and its S256 challenge.</summary>
        internal static void PkcePair(out string codeVerifier, out string codeChallenge)
        {
            codeVerifier = Base64Url(Bytes(32));
            using (var sha = new SHA256Managed()) codeChallenge = Base64Url(sha.ComputeHash(Encoding.ASCII.GetBytes(codeVerifier)));
        }

        /// <summary>Base64URL without padding (RFC 4648 section 5).</summary>
        internal static string Base64Url(byte[] bytes)
        {
            return Convert.ToBase64String(bytes).TrimEnd('=').Replace('+', '-').Replace('/', '_');
        }
    }
}
#endif
