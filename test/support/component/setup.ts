// DOM matchers (toBeInTheDocument, toHaveTextContent…) for the component tests.
import '@testing-library/jest-dom/vitest';
