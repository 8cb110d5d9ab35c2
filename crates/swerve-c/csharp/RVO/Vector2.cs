// RVO2-CS's vector, line and math helpers, for programs written against RVO2-CS (the C# port
// of RVO2) that run on swerve instead: the same names, the same arithmetic.

using System;
using System.Globalization;

namespace RVO
{
    /// <summary>A two-dimensional vector (RVO2-CS's Vector2).</summary>
    public struct Vector2
    {
        internal float x_;
        internal float y_;

        /// <summary>The vector (x, y).</summary>
        public Vector2(float x, float y)
        {
            x_ = x;
            y_ = y;
        }

        /// <summary>The x-coordinate.</summary>
        public float x()
        {
            return x_;
        }

        /// <summary>The y-coordinate.</summary>
        public float y()
        {
            return y_;
        }

        /// <summary>The x-coordinate.</summary>
        public float X
        {
            get { return x_; }
        }

        /// <summary>The y-coordinate.</summary>
        public float Y
        {
            get { return y_; }
        }

        /// <summary>"(x,y)", culture-invariant.</summary>
        public override string ToString()
        {
            return "(" + x_.ToString(CultureInfo.InvariantCulture) + "," + y_.ToString(CultureInfo.InvariantCulture) + ")";
        }

        /// <summary>The dot product.</summary>
        public static float operator *(Vector2 vector1, Vector2 vector2)
        {
            return vector1.x_ * vector2.x_ + vector1.y_ * vector2.y_;
        }

        /// <summary>Scalar multiplication.</summary>
        public static Vector2 operator *(float scalar, Vector2 vector)
        {
            return vector * scalar;
        }

        /// <summary>Scalar multiplication.</summary>
        public static Vector2 operator *(Vector2 vector, float scalar)
        {
            return new Vector2(vector.x_ * scalar, vector.y_ * scalar);
        }

        /// <summary>Scalar division (each coordinate divided, as RVO2-CS does).</summary>
        public static Vector2 operator /(Vector2 vector, float scalar)
        {
            return new Vector2(vector.x_ / scalar, vector.y_ / scalar);
        }

        /// <summary>The sum.</summary>
        public static Vector2 operator +(Vector2 vector1, Vector2 vector2)
        {
            return new Vector2(vector1.x_ + vector2.x_, vector1.y_ + vector2.y_);
        }

        /// <summary>The difference.</summary>
        public static Vector2 operator -(Vector2 vector1, Vector2 vector2)
        {
            return new Vector2(vector1.x_ - vector2.x_, vector1.y_ - vector2.y_);
        }

        /// <summary>The negation.</summary>
        public static Vector2 operator -(Vector2 vector)
        {
            return new Vector2(-vector.x_, -vector.y_);
        }

        /// <summary>The same vector as System.Numerics' (the type swerve's own API uses).</summary>
        public static implicit operator System.Numerics.Vector2(Vector2 vector)
        {
            return new System.Numerics.Vector2(vector.x_, vector.y_);
        }

        /// <summary>The same vector from System.Numerics'.</summary>
        public static implicit operator Vector2(System.Numerics.Vector2 vector)
        {
            return new Vector2(vector.X, vector.Y);
        }
    }

    /// <summary>An ORCA half-plane (RVO2-CS's Line): the velocities left of the line through
    /// <see cref="point"/> along the unit vector <see cref="direction"/> are permitted.</summary>
    public struct Line
    {
        /// <summary>The line's unit direction.</summary>
        public Vector2 direction;
        /// <summary>A point on the line.</summary>
        public Vector2 point;
    }

    /// <summary>RVO2-CS's vector functions.</summary>
    public static class RVOMath
    {
        /// <summary>RVO2's tolerance.</summary>
        public const float RVO_EPSILON = 0.00001f;

        /// <summary>The length of a vector.</summary>
        public static float Abs(Vector2 vector)
        {
            return (float)Math.Sqrt(AbsSq(vector));
        }

        /// <summary>The squared length of a vector.</summary>
        public static float AbsSq(Vector2 vector)
        {
            return vector * vector;
        }

        /// <summary>The vector divided by its length.</summary>
        public static Vector2 Normalize(Vector2 vector)
        {
            return vector / Abs(vector);
        }

        /// <summary>RVO2-CS 2.0's name for <see cref="Abs"/>.</summary>
        public static float abs(Vector2 vector)
        {
            return Abs(vector);
        }

        /// <summary>RVO2-CS 2.0's name for <see cref="AbsSq"/>.</summary>
        public static float absSq(Vector2 vector)
        {
            return AbsSq(vector);
        }

        /// <summary>RVO2-CS 2.0's name for <see cref="Normalize"/>.</summary>
        public static Vector2 normalize(Vector2 vector)
        {
            return Normalize(vector);
        }
    }
}
