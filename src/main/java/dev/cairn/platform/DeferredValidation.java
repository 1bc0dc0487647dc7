package dev.cairn.platform;

import io.quarkus.arc.Arc;
import io.quarkus.arc.InjectableBean;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.ObservesAsync;
import jakarta.enterprise.inject.Alternative;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.literal.NamedLiteral;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import jakarta.validation.ClockProvider;
import jakarta.validation.ConstraintValidatorFactory;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.MessageInterpolator;
import jakarta.validation.ParameterNameProvider;
import jakarta.validation.TraversableResolver;
import jakarta.validation.Validator;
import jakarta.validation.executable.ExecutableValidator;
import jakarta.validation.metadata.BeanDescriptor;
import org.hibernate.validator.HibernateValidatorContext;
import org.hibernate.validator.HibernateValidatorFactory;
import org.hibernate.validator.spi.nodenameprovider.PropertyNodeNameProvider;
import org.hibernate.validator.spi.properties.GetterPropertySelectionStrategy;
import org.hibernate.validator.spi.scripting.ScriptEvaluatorFactory;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Builds Hibernate Validator's factory after the start instead of during it. Quarkus creates the factory while the
 * application starts (its metadata for every validated class: about a third of a second of a start, before readiness).
 * This alternative stands in for that bean with a factory — and validators — that build the real one on first use,
 * or as soon as the service reports ready ({@link ServiceReady}), whichever comes first: readiness does not wait for
 * it and the rest of the start does not share the CPU with it. A validating request that arrives before that build
 * finished waits for it, once (about 0.3 s on a cold JVM), on the thread it came on.
 * The real factory is Quarkus' own bean, configured exactly as before; validation behaves the same.
 */
@Singleton
public class DeferredValidation {

    /** The name Quarkus gives its validator factory bean. */
    static final String FACTORY = "quarkus-hibernate-validator-factory";

    private static final Logger LOG = Logger.getLogger(DeferredValidation.class);

    private final Deferred<HibernateValidatorFactory> factory = new Deferred<>(DeferredValidation::quarkusFactory);

    @Produces
    @Alternative
    @Priority(1)
    @Singleton
    @Named(FACTORY)
    HibernateValidatorFactory factory() {
        return new DeferredFactory(factory);
    }

    void buildWhenReady(@ObservesAsync ServiceReady ready) {
        try {
            factory.get();
        } catch (RuntimeException e) {
            // The first validation builds it again and answers the failure where it belongs.
            LOG.warnf("building the validator factory once ready failed: %s", e.getMessage());
        }
    }

    /** Whether Quarkus' factory has been built (by the first validation, or once the service was ready). */
    boolean built() {
        return factory.made();
    }

    /** Quarkus' own factory bean (the one this alternative stands in for), created on first call. */
    static HibernateValidatorFactory quarkusFactory() {
        var container = Arc.container();
        for (var bean : container.beanManager().getBeans(HibernateValidatorFactory.class, NamedLiteral.of(FACTORY))) {
            if (!bean.isAlternative()) {
                return (HibernateValidatorFactory) container.instance((InjectableBean<?>) bean).get();
            }
        }
        throw new IllegalStateException("no Hibernate Validator factory bean named " + FACTORY);
    }

    /** A value made once, on first use, by whichever thread asks first. */
    static final class Deferred<T> implements Supplier<T> {
        private final Supplier<T> make;
        private volatile T value;

        Deferred(Supplier<T> make) {
            this.make = make;
        }

        boolean made() {
            return value != null;
        }

        @Override
        public T get() {
            T made = value;
            if (made == null) {
                synchronized (this) {
                    made = value;
                    if (made == null) {
                        made = make.get();
                        value = made;
                    }
                }
            }
            return made;
        }
    }

    private record DeferredFactory(Supplier<HibernateValidatorFactory> real) implements HibernateValidatorFactory {

        @Override
        public Validator getValidator() {
            return new DeferredValidator(new Deferred<>(() -> real.get().getValidator()));
        }

        @Override
        public HibernateValidatorContext usingContext() {
            return real.get().usingContext();
        }

        @Override
        public MessageInterpolator getMessageInterpolator() {
            return real.get().getMessageInterpolator();
        }

        @Override
        public TraversableResolver getTraversableResolver() {
            return real.get().getTraversableResolver();
        }

        @Override
        public ConstraintValidatorFactory getConstraintValidatorFactory() {
            return real.get().getConstraintValidatorFactory();
        }

        @Override
        public ParameterNameProvider getParameterNameProvider() {
            return real.get().getParameterNameProvider();
        }

        @Override
        public ClockProvider getClockProvider() {
            return real.get().getClockProvider();
        }

        @Override
        public ScriptEvaluatorFactory getScriptEvaluatorFactory() {
            return real.get().getScriptEvaluatorFactory();
        }

        @Override
        public Duration getTemporalValidationTolerance() {
            return real.get().getTemporalValidationTolerance();
        }

        @Override
        public GetterPropertySelectionStrategy getGetterPropertySelectionStrategy() {
            return real.get().getGetterPropertySelectionStrategy();
        }

        @Override
        public PropertyNodeNameProvider getPropertyNodeNameProvider() {
            return real.get().getPropertyNodeNameProvider();
        }

        @Override
        public <T> T unwrap(Class<T> type) {
            return type.isInstance(this) ? type.cast(this) : real.get().unwrap(type);
        }

        @Override
        public void close() {
            // Quarkus' bean closes the real factory when the application stops.
        }
    }

    private record DeferredValidator(Supplier<Validator> real) implements Validator {

        @Override
        public <T> Set<ConstraintViolation<T>> validate(T object, Class<?>... groups) {
            return real.get().validate(object, groups);
        }

        @Override
        public <T> Set<ConstraintViolation<T>> validateProperty(T object, String propertyName, Class<?>... groups) {
            return real.get().validateProperty(object, propertyName, groups);
        }

        @Override
        public <T> Set<ConstraintViolation<T>> validateValue(Class<T> beanType, String propertyName, Object value,
                                                             Class<?>... groups) {
            return real.get().validateValue(beanType, propertyName, value, groups);
        }

        @Override
        public BeanDescriptor getConstraintsForClass(Class<?> clazz) {
            return real.get().getConstraintsForClass(clazz);
        }

        @Override
        public <T> T unwrap(Class<T> type) {
            return type.isInstance(this) ? type.cast(this) : real.get().unwrap(type);
        }

        @Override
        public ExecutableValidator forExecutables() {
            return real.get().forExecutables();
        }
    }
}
