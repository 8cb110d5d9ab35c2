// swerve for C#: how a status from the C interface becomes a .NET exception, and the handles
// that free what the C interface allocated.
//
// The C interface writes results only on success and keeps a per-thread message for every
// failure (swerve.h); a managed thread calls into it on its own OS thread, so the message
// read right after a failed call is that call's.

using System;
using System.Collections.Generic;
using System.Numerics;
using System.Runtime.InteropServices;
using System.Text;
using Swerve.Native;

namespace Swerve
{
    /// <summary>A failure of swerve itself rather than of the input: a Rust panic stopped at
    /// the boundary, or a null pointer passed by this binding. Bad input (a buffer too short
    /// included) raises <see cref="ArgumentException"/>, an unknown id
    /// <see cref="KeyNotFoundException"/>, and a record asked of a simulator that does not
    /// record <see cref="InvalidOperationException"/>, each with swerve's message.</summary>
    public sealed class SwerveException : Exception
    {
        internal SwerveException(string message) : base(message)
        {
        }
    }

    internal static unsafe class Status
    {
        /// <summary>Returns when <paramref name="status"/> is Ok; otherwise throws the exception
        /// that matches it, with the message swerve left for this thread.</summary>
        internal static void Check(SwerveStatus status)
        {
            if (status == SwerveStatus.Ok)
            {
                return;
            }
            string message = LastErrorMessage();
            switch (status)
            {
                case SwerveStatus.InvalidArgument:
                case SwerveStatus.BufferTooSmall:
                    throw new ArgumentException(message);
                case SwerveStatus.UnknownId:
                    throw new KeyNotFoundException(message);
                case SwerveStatus.NotRecorded:
                    throw new InvalidOperationException(message);
                default:
                    throw new SwerveException(status + ": " + message);
            }
        }

        /// <summary>The message of this thread's last failed call.</summary>
        internal static string LastErrorMessage()
        {
            return Utf8(NativeMethods.swerve_last_error_message());
        }

        /// <summary>A NUL-terminated UTF-8 string owned by the library.</summary>
        internal static string Utf8(byte* text)
        {
            if (text == null)
            {
                return "";
            }
            int length = 0;
            while (text[length] != 0)
            {
                ++length;
            }
            return Encoding.UTF8.GetString(text, length);
        }

        /// <summary>A string for the C interface: its UTF-8 bytes and a NUL. A null string raises
        /// ArgumentNullException (named <paramref name="name"/>), and one with a NUL in it
        /// ArgumentException (C would read only what comes before it).</summary>
        internal static byte[] NulTerminated(string text, string name)
        {
            if (text == null)
            {
                throw new ArgumentNullException(name);
            }
            if (text.IndexOf('\0') >= 0)
            {
                throw new ArgumentException(name + " must not contain a NUL character, got \"" + text.Replace("\0", "\\0") + "\"");
            }
            byte[] bytes = new byte[Encoding.UTF8.GetByteCount(text) + 1];
            Encoding.UTF8.GetBytes(text, 0, text.Length, bytes, 0);
            return bytes;
        }

        /// <summary>A count from the C interface as an <c>int</c>, the size .NET arrays take.
        /// </summary>
        internal static int Count(UIntPtr count)
        {
            ulong value = count.ToUInt64();
            if (value > int.MaxValue)
            {
                throw new SwerveException("a count of " + value + " does not fit a .NET array");
            }
            return (int)value;
        }
    }

    /// <summary>The library's version, e.g. "0.1.0".</summary>
    public static class Library
    {
        /// <summary>The version of the native library loaded (libswerve_c).</summary>
        public static string Version
        {
            get
            {
                unsafe
                {
                    return Status.Utf8(NativeMethods.swerve_version());
                }
            }
        }
    }

    /// <summary>A handle from the C interface, freed once: by Dispose, or by the finalizer
    /// when the owner was never disposed. (The owners keep the pointer in a field of their
    /// own for their calls.)</summary>
    internal abstract class NativeHandle : SafeHandle
    {
        protected NativeHandle() : base(IntPtr.Zero, true)
        {
        }

        public override bool IsInvalid
        {
            get { return handle == IntPtr.Zero; }
        }

        internal void Take(IntPtr raw)
        {
            SetHandle(raw);
        }
    }

    internal sealed class SimulatorHandle : NativeHandle
    {
        protected override bool ReleaseHandle()
        {
            unsafe
            {
                NativeMethods.swerve_simulator_free((SwerveSimulator*)handle);
            }
            return true;
        }
    }

    internal sealed class Simulator3DHandle : NativeHandle
    {
        protected override bool ReleaseHandle()
        {
            unsafe
            {
                NativeMethods.swerve_simulator3d_free((SwerveSimulator3d*)handle);
            }
            return true;
        }
    }

    internal sealed class WorldHandle : NativeHandle
    {
        protected override bool ReleaseHandle()
        {
            unsafe
            {
                NativeMethods.swerve_world_free((SwerveWorld*)handle);
            }
            return true;
        }
    }

    internal sealed class World3DHandle : NativeHandle
    {
        protected override bool ReleaseHandle()
        {
            unsafe
            {
                NativeMethods.swerve_world3d_free((SwerveWorld3d*)handle);
            }
            return true;
        }
    }

    /// <summary>System.Numerics vectors to and from the C interface's (the same floats).</summary>
    internal static class Vec
    {
        internal static SwerveVec2 ToNative(Vector2 v)
        {
            SwerveVec2 native;
            native.x = v.X;
            native.y = v.Y;
            return native;
        }

        internal static Vector2 From(SwerveVec2 v)
        {
            return new Vector2(v.x, v.y);
        }

        internal static SwerveVec3 ToNative(Vector3 v)
        {
            SwerveVec3 native;
            native.x = v.X;
            native.y = v.Y;
            native.z = v.Z;
            return native;
        }

        internal static Vector3 From(SwerveVec3 v)
        {
            return new Vector3(v.x, v.y, v.z);
        }
    }

    internal unsafe delegate SwerveStatus FillItems(void* buffer, UIntPtr capacity, UIntPtr* count);

    /// <summary>Lists of a size only the library knows: one call with no buffer asks for the
    /// count (the C interface reports it with BufferTooSmall), a second fills an array of
    /// that size.</summary>
    internal static unsafe class Buffers
    {
        internal static T[] NotNull<T>(T[] buffer)
        {
            if (buffer == null)
            {
                throw new ArgumentNullException("buffer");
            }
            return buffer;
        }

        internal static T[] NotNull<T>(T[] array, string name)
        {
            if (array == null)
            {
                throw new ArgumentNullException(name);
            }
            return array;
        }

        /// <summary>A list of blittable values laid out as the C interface's (ids, vectors,
        /// half-planes, the ball worlds' Ball, Contact and the like, or IntPtr for a list of
        /// pointers), filled in place.</summary>
        internal static T[] Items<T>(FillItems fill, SafeHandle owner) where T : struct
        {
            UIntPtr count;
            T[] values = new T[Count(fill(null, UIntPtr.Zero, &count), count)];
            if (values.Length > 0)
            {
                GCHandle pinned = GCHandle.Alloc(values, GCHandleType.Pinned);
                try
                {
                    Status.Check(fill((void*)pinned.AddrOfPinnedObject(), (UIntPtr)values.Length, &count));
                }
                finally
                {
                    pinned.Free();
                }
            }
            GC.KeepAlive(owner);
            return values;
        }

        /// <summary>The count a list-filling call reports when given no buffer (its status
        /// BufferTooSmall, or Ok for none); any other status (an unknown id, say) is thrown.
        /// </summary>
        internal static int Count(SwerveStatus status, UIntPtr count)
        {
            if (status != SwerveStatus.BufferTooSmall)
            {
                Status.Check(status);
            }
            return Status.Count(count);
        }
    }
}
